import type { Doc } from '../../core/object-doc';
import { apiError } from '../../../http/errors';
import type { BidRule } from '../procedure';
import { responsesAnswerCriteria } from './requirement-response.rules';

/** The bid rules every procedure runs, with the spec-era reference's texts (docs/tenders.md §Bids). */

const invalid = (name: string, description: unknown) => apiError(422, description, { name });
const lotsOf = (tender: Doc): Doc[] => tender.lots ?? [];

/** `validate_bid_value`: a lot tender takes values per lot only; a tender without lots needs `value`. */
export const valueFitsTender: BidRule = (bid, tender, { config }) => {
  if (lotsOf(tender).length > 0) {
    if (bid.value) throw invalid('value', ['value should be posted for each lot of bid']);
    return;
  }
  if (!bid.value) throw invalid('value', ['This field is required.']);
  const problem = valueProblem(tender.value, bid.value, config, 'tender');
  if (problem) throw invalid('value', [problem]);
};

/**
 * `validate_lot_values` and `PostLotValue`: a lot tender needs `lotValues`, one per lot, each for a lot of the
 * tender and within its value as `config` says (`validate_lotvalue_value`).
 */
export const lotValuesFitLots: BidRule = (bid, tender, { config }) => {
  const lots = lotsOf(tender);
  const values: Doc[] = bid.lotValues ?? [];
  if (lots.length > 0 && values.length === 0) throw invalid('lotValues', ['This field is required.']);
  const related = values.map((v) => v.relatedLot);
  if (new Set(related).size !== related.length) throw invalid('lotValues', ["bids don't allow duplicated proposals"]);
  const errors = values.map((v) => {
    const lot = lots.find((l) => l.id === v.relatedLot);
    if (!lot) return { relatedLot: ['relatedLot should be one of lots'] };
    const problem = valueProblem(lot.value, v.value, config, 'lot');
    return problem ? { value: [problem] } : null;
  });
  if (errors.some(Boolean))
    throw invalid(
      'lotValues',
      errors.map((e) => e ?? {}),
    );
};

/** `validate_lot_value_*` / `validate_bid_value`: currency, amount and VAT against the tender's or lot's value. */
function valueProblem(limit: Doc | undefined, value: Doc | undefined, config: Doc, of: 'tender' | 'lot'): string | null {
  if (!limit || !value) return null;
  if (config.valueCurrencyEquality) {
    if (limit.currency !== value.currency) return `currency of bid should be identical to currency of value of ${of}`;
    if (config.hasValueRestriction && limit.amount < value.amount) return `value of bid should be less than value of ${of}`;
  }
  if (limit.valueAddedTaxIncluded !== value.valueAddedTaxIncluded) {
    return `valueAddedTaxIncluded of bid should be identical to valueAddedTaxIncluded of value of ${of}`;
  }
  return null;
}

/** `validate_items_id`: a bid prices items of the tender only. */
export const itemsOnTender: BidRule = (bid, tender) => {
  const ids = new Set((tender.items ?? []).map((i: Doc) => i.id));
  if ((bid.items ?? []).some((i: Doc) => !ids.has(i.id))) throw apiError(422, 'Bid items ids should be on tender items ids');
};

/** `CommonBid.validate_parameters`: one parameter per feature that concerns the bid (its lots' items and lots). */
export const parametersCoverFeatures: BidRule = (bid, tender) => {
  const features: Doc[] = tender.features ?? [];
  const parameters: Doc[] = bid.parameters ?? [];
  const codes = new Set(parameters.map((p) => p.code));
  let wanted = features;
  if (lotsOf(tender).length > 0) {
    const lots = new Set((bid.lotValues ?? []).map((v: Doc) => v.relatedLot));
    const items = new Set((tender.items ?? []).filter((i: Doc) => lots.has(i.relatedLot)).map((i: Doc) => i.id));
    wanted = features.filter(
      (f) =>
        f.featureOf === 'tenderer' ||
        (f.featureOf === 'lot' && lots.has(f.relatedItem)) ||
        (f.featureOf === 'item' && items.has(f.relatedItem)),
    );
  } else if (features.length > 0 && parameters.length === 0) {
    throw invalid('parameters', ['This field is required.']);
  }
  const same = wanted.length === codes.size && wanted.every((f) => codes.has(f.code));
  if (!same) throw invalid('parameters', ['All features parameters is required.']);
};

export const BID_RULES: BidRule[] = [valueFitsTender, lotValuesFitLots, parametersCoverFeatures, itemsOnTender, responsesAnswerCriteria];
