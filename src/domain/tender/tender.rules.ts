import { apiError } from '../../http/errors';
import type { TenderRule } from './procedure';
import type { Item, Period } from '../core/shapes';
import type { Feature, TenderContent } from './tender.types';

/**
 * Named rules shared by the procedures
 * (docs/tenders.md §Lots, §Minimal step, §Value and currency, §Validation messages). Each throws the reference's
 * error.
 */

const lotIds = (t: TenderContent) => new Set<string | undefined>((t.lots ?? []).map((l) => l.id));

/** `items[].relatedLot` names one of the tender's lots. */
export const itemsRelatedLotExists: TenderRule = (t) => {
  const ids = lotIds(t);
  const items = t.items ?? [];
  if (items.some((i) => i.relatedLot !== undefined && !ids.has(i.relatedLot))) {
    throw apiError(
      422,
      items.map((i) => (i.relatedLot !== undefined && !ids.has(i.relatedLot) ? { relatedLot: ['relatedLot should be one of lots'] } : {})),
      { name: 'items' },
    );
  }
};

/** Every item belongs to a lot once the tender leaves draft (`validate_related_lot_in_items`). */
export const itemsHaveRelatedLot: TenderRule = (t) => {
  if ((t.items ?? []).some((i) => !i.relatedLot)) throw apiError(422, 'This field is required', { name: 'item.relatedLot' });
};

/** Items share one CPV class (4 digits; 3 for the 336 group), e.g. `CPV class of items (1921, 4461) should be identical`. */
export const cpvClassOfItemsIdentical: TenderRule = (t) => {
  const classes = [
    ...new Set<string>(
      (t.items ?? []).map((i) => {
        const id = i.classification.id;
        return id.startsWith('336') ? id.slice(0, 3) : id.slice(0, 4);
      }),
    ),
  ];
  if (classes.length > 1) throw apiError(422, [`CPV class of items (${classes.sort().join(', ')}) should be identical`], { name: 'items' });
};

/** `99999999-9` needs an additional classification from a special scheme. */
export const specialAdditionalClassification: TenderRule = (t) => {
  const schemes = ['ДК003', 'ДК015', 'ДК018', 'specialNorms'];
  const items = t.items ?? [];
  const bad = (i: Item) =>
    i.classification.id === '99999999-9' && !(i.additionalClassifications ?? []).some((c) => schemes.includes(c.scheme));
  if (items.some(bad)) {
    const text = `One of additional classifications should be one of [${schemes.join(', ')}].`;
    throw apiError(
      422,
      items.map((i) => (bad(i) ? { additionalClassifications: [text] } : {})),
      { name: 'items' },
    );
  }
};

/** `procurementMethod`, when given, equals the procedure's. */
export const procurementMethodIs =
  (method: string): TenderRule =>
  (t) => {
    if (t.procurementMethod !== method) throw apiError(422, `procurementMethod should be ${method}`, { name: 'procurementMethod' });
  };

/** `submissionMethod` exists only with an auction. */
export const submissionMethodOnlyWithAuction: TenderRule = (t, { config }) => {
  if (!config.hasAuction && t.submissionMethod !== undefined) throw apiError(422, ['Rogue field.'], { name: 'submissionMethod' });
};

/**
 * With an auction each lot has a minimalStep below its value, and so does a tender without lots; a tender with lots
 * may leave its own out, as the reference 1.0.274 wants it, and one it gives is checked as the spec era checked it
 * (docs/tenders.md §Minimal step).
 */
export const minimalStepFitsValue: TenderRule = (t, { config }) => {
  if (!config.hasAuction) return;
  // A lot's own check is its model's validator in the reference, so it answers before the tender-level ones.
  for (const lot of t.lots ?? []) {
    if (!lot.minimalStep) throw apiError(422, ['This field is required.'], { name: 'minimalStep' });
    if (lot.minimalStep.amount > lot.value.amount) {
      throw apiError(422, 'Minimal step value should be less than lot value', { name: 'lots' });
    }
  }
  if (!t.minimalStep && t.lots?.length) return;
  if (!t.minimalStep) throw apiError(422, ['This field is required.'], { name: 'minimalStep' });
  if (t.minimalStep.currency !== t.value.currency) {
    throw apiError(422, ['Tender minimal step currency should be identical to tender currency'], { name: 'minimalStep.currency' });
  }
  if (t.minimalStep.valueAddedTaxIncluded !== t.value.valueAddedTaxIncluded) {
    throw apiError(422, ['Tender minimal step valueAddedTaxIncluded should be identical to tender valueAddedTaxIncluded'], {
      name: 'minimalStep.valueAddedTaxIncluded',
    });
  }
  if (t.minimalStep.amount > t.value.amount) {
    throw apiError(422, ['Tender minimal step amount should be less than tender amount'], { name: 'minimalStep.amount' });
  }
};

/** Milestones relate to existing lots, and financing percentages add up to 100 per tender or lot (docs/tenders.md §Milestones). */
export const milestonesConsistent: TenderRule = (t) => {
  const milestones = t.milestones ?? [];
  const ids = lotIds(t);
  if (milestones.some((m) => m.relatedLot !== undefined && !ids.has(m.relatedLot))) {
    throw apiError(
      422,
      milestones.map((m) =>
        m.relatedLot !== undefined && !ids.has(m.relatedLot) ? { relatedLot: ['relatedLot should be one of the lots.'] } : {},
      ),
      { name: 'milestones' },
    );
  }
  const sums = new Map<string | undefined, number>();
  for (const m of milestones.filter((x) => x.type === 'financing')) sums.set(m.relatedLot, (sums.get(m.relatedLot) ?? 0) + m.percentage);
  for (const [lot, sum] of sums) {
    const rounded = Math.round(sum * 100) / 100;
    if (rounded !== 100) {
      const where = lot ? ` for lot ${lot}` : '';
      throw apiError(422, [`Sum of the financing milestone percentages ${rounded} is not equal 100${where}.`], { name: 'milestones' });
    }
  }
};

/** Features name existing items or lots. */
export const featuresRelateToExisting: TenderRule = (t) => {
  const items = new Set<string | undefined>((t.items ?? []).map((i) => i.id));
  const lots = lotIds(t);
  const features = t.features ?? [];
  const bad = (f: Feature) => (f.featureOf === 'item' && !items.has(f.relatedItem)) || (f.featureOf === 'lot' && !lots.has(f.relatedItem));
  if (features.some(bad)) {
    throw apiError(
      422,
      features.map((f) => (bad(f) ? { relatedItem: ['relatedItem should be one of items'] } : {})),
      { name: 'features' },
    );
  }
};

/** A Period does not end before it begins. */
export const periodsInOrder: TenderRule = (t) => {
  for (const name of ['enquiryPeriod', 'tenderPeriod'] as const) {
    const p: Period | undefined = t[name];
    if (p?.startDate && p?.endDate && Date.parse(p.startDate) > Date.parse(p.endDate)) {
      throw apiError(422, { startDate: ['period should begin before its end'] }, { name });
    }
  }
};
