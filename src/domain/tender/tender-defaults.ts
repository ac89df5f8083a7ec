import { formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import type { Value } from '../core/shapes';
import type { TenderProcedure } from './procedure';
import { withTestTitles } from '../core/test-mode';
import type { TenderConfig, TenderContent } from './tender.types';

/** The spec era's Value defaults: `UAH`, `valueAddedTaxIncluded: true` (docs/tenders.md §Server-set values). */
const valueWithDefaults = (v: Value): Value => ({ currency: 'UAH', valueAddedTaxIncluded: true, ...v });

/** Lot values, minimal steps and unit prices take the tender value's currency and VAT flag (docs/tenders.md §Server-set values). */
const inTenderCurrency = (v: Value, tender: TenderContent): Value => ({
  ...v,
  currency: tender.value.currency,
  valueAddedTaxIncluded: tender.value.valueAddedTaxIncluded,
});

/** The member with a new id first, unless it has one: a request's items, lots and milestones may come without. */
const withId = <M extends object>(member: M): M => ({ id: newId(), ...member });

const sumOf = (amounts: number[]) => amounts.reduce((total, amount) => total + amount, 0);

/**
 * Server-filled members of a tender being saved: ids where absent, lot status and date, Value defaults, the value summed from lots, the
 * procedure's methods, and test-mode titles. Idempotent, so it runs on creation and on every PATCH.
 */
export function withServerDefaults<T extends TenderContent>(t: T, procedure: TenderProcedure, config: TenderConfig, now: Date): T {
  const value = valueWithDefaults(t.value);
  const tender: T = { ...t, value };
  if (t.minimalStep)
    tender.minimalStep = { currency: value.currency, valueAddedTaxIncluded: value.valueAddedTaxIncluded, ...t.minimalStep };
  tender.items = t.items.map((item) => ({
    ...withId(item),
    ...(item.unit?.value ? { unit: { ...item.unit, value: inTenderCurrency(item.unit.value, tender) } } : {}),
  }));
  if (t.lots) {
    tender.lots = t.lots.map((lot) => ({
      ...withId(lot),
      value: inTenderCurrency(lot.value, tender),
      ...(lot.minimalStep ? { minimalStep: inTenderCurrency(lot.minimalStep, tender) } : {}),
      status: lot.status ?? 'active',
      date: lot.date ?? formatKyiv(now),
    }));
  }
  // The tender's value is the sum of its lots' values (`calc_tender_value`, docs/tenders.md §Lots).
  if (tender.lots?.length) tender.value = { ...value, amount: sumOf(tender.lots.map((lot) => lot.value?.amount ?? 0)) };
  if (t.milestones) tender.milestones = t.milestones.map(withId);
  tender.procurementMethod ??= procedure.procurementMethod;
  if (config.hasAuction) tender.submissionMethod ??= 'electronicAuction';
  tender.awardCriteria ??= 'lowestCost';
  return withTestTitles(tender);
}
