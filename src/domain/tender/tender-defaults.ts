import type { Doc } from '../core/object-doc';
import { formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import type { TenderProcedure } from './procedure';
import { withTestTitles } from '../core/test-mode';

/** The spec era's Value defaults: `UAH`, `valueAddedTaxIncluded: true` (docs/tenders.md §Server-set values). */
const valueWithDefaults = (v: Doc): Doc => ({ currency: 'UAH', valueAddedTaxIncluded: true, ...v });

/** Lot values, minimal steps and unit prices take the tender value's currency and VAT flag (docs/tenders.md §Server-set values). */
const inTenderCurrency = (v: Doc | undefined, tender: Doc): Doc | undefined =>
  v && { ...v, currency: tender.value.currency, valueAddedTaxIncluded: tender.value.valueAddedTaxIncluded };

const sumOf = (amounts: number[]) => amounts.reduce((total, amount) => total + amount, 0);

/**
 * Server-filled members of a tender being saved: ids where absent, lot status and date, Value defaults, the value summed from lots, the
 * procedure's methods, and test-mode titles. Idempotent, so it runs on creation and on every PATCH.
 */
export function withServerDefaults(t: Doc, procedure: TenderProcedure, config: Doc, now: Date): Doc {
  const value = valueWithDefaults(t.value);
  const tender: Doc = { ...t, value };
  if (t.minimalStep)
    tender.minimalStep = { currency: value.currency, valueAddedTaxIncluded: value.valueAddedTaxIncluded, ...t.minimalStep };
  tender.items = t.items.map((item: Doc) => ({
    id: newId(),
    ...item,
    ...(item.unit?.value ? { unit: { ...item.unit, value: inTenderCurrency(item.unit.value, tender) } } : {}),
  }));
  if (t.lots) {
    tender.lots = t.lots.map((lot: Doc) => ({
      id: newId(),
      ...lot,
      value: inTenderCurrency(lot.value, tender),
      ...(lot.minimalStep ? { minimalStep: inTenderCurrency(lot.minimalStep, tender) } : {}),
      status: lot.status ?? 'active',
      date: lot.date ?? formatKyiv(now),
    }));
  }
  // The tender's value is the sum of its lots' values (`calc_tender_value`, docs/tenders.md §Lots).
  if (tender.lots?.length) tender.value = { ...value, amount: sumOf(tender.lots.map((lot: Doc) => lot.value?.amount ?? 0)) };
  if (t.milestones) tender.milestones = t.milestones.map((m: Doc) => ({ id: newId(), ...m }));
  tender.procurementMethod ??= procedure.procurementMethod;
  if (config.hasAuction) tender.submissionMethod ??= 'electronicAuction';
  tender.awardCriteria ??= 'lowestCost';
  return withTestTitles(tender);
}
