import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';
import { appliesFrom } from '../core/constants';
import { PROCEDURES } from './plan.schema';
import type { Plan, PlanChecked, PlanOrganization } from './plan.types';

/**
 * What a whole plan must satisfy after every POST and PATCH (the reference's `Plan` model validators,
 * docs/plans.md §Organizations, §Procedures, §Statuses, §Budget, §Items). `createdAt` is the plan's `dateCreated` (now while it is being created): the
 * date-dependent rules follow it, except the budget's period/year, which follow the request's time.
 */
export type PlanRule = (plan: PlanChecked, createdAt: string, now: Date) => void;

const REQUIRED = ['This field is required.'];
const invalid = (name: string, description: unknown) => apiError(422, description, { name });

/** Python's repr of a tuple of strings, as the reference prints its choices: `('a', 'b')`, `('a',)`. */
const tupleText = (values: string[]) => `(${values.map((v) => `'${v}'`).join(', ')}${values.length === 1 ? ',' : ''})`;

/** docs/plans.md §Organizations: `address` and `kind` of an organization, required from PLAN_ADDRESS_KIND_REQUIRED_FROM. */
function missingAddressKind(org: PlanOrganization): Record<string, string[]> | null {
  const missing: Record<string, string[]> = {};
  if (!org.address) missing.address = REQUIRED;
  if (!org.kind) missing.kind = REQUIRED;
  return Object.keys(missing).length ? missing : null;
}

export const procuringEntityAddressKind: PlanRule = (plan, createdAt) => {
  if (!appliesFrom('PLAN_ADDRESS_KIND_REQUIRED_FROM', createdAt)) return;
  const missing = missingAddressKind(plan.procuringEntity);
  if (missing) throw invalid('procuringEntity', missing);
};

/** docs/plans.md §Procedures: `procurementMethodType` is one of its `procurementMethod`'s; `""` allows only centralizedProcurement from the date. */
export const procurementMethodTypeOfMethod: PlanRule = (plan, createdAt) => {
  const { procurementMethod = '', procurementMethodType = '' } = plan.tender;
  const allowed =
    procurementMethod === '' && appliesFrom('PLAN_ADDRESS_KIND_REQUIRED_FROM', createdAt)
      ? ['centralizedProcurement']
      : PROCEDURES[procurementMethod];
  if (!allowed.includes(procurementMethodType)) {
    throw invalid('tender', { procurementMethodType: [`Value must be one of ${tupleText(allowed)}.`] });
  }
};

/** docs/plans.md §Statuses: `cancelled` needs an active cancellation; `complete` without a tender only for a few types. */
export const statusPreconditions: PlanRule = (plan) => {
  if (plan.status === 'cancelled' && plan.cancellation?.status !== 'active') {
    throw invalid('status', ['An active cancellation object is required']);
  }
  if (plan.status === 'complete' && !plan.tender_id) {
    const type = plan.tender.procurementMethodType ?? '';
    if (!['belowThreshold', 'reporting', ''].includes(type)) {
      throw invalid('status', [`Can't complete plan with '${type}' tender.procurementMethodType`]);
    }
  }
};

/** docs/plans.md §Budget: `period` before BUDGET_PERIOD_FROM, `year` from it (by the request's time, `is_const_active`). */
export const budgetPeriodOrYear: PlanRule = (plan, _createdAt, now) => {
  const { budget } = plan;
  if (!budget) return;
  const periodEra = appliesFrom('BUDGET_PERIOD_FROM', now);
  if (budget.period && !periodEra) throw invalid('budget', { period: ["Can't use period field, use year field instead"] });
  if (budget.year && periodEra) throw invalid('budget', { year: ["Can't use year field, use period field instead"] });
};

/** docs/plans.md §Budget: breakdown members (an `other` one describes itself) and one currency for them all and the budget. */
export const budgetBreakdownMembers: PlanRule = (plan) => {
  const breakdown = plan.budget?.breakdown ?? [];
  if (breakdown.some((b) => b.title === 'other' && !b.description)) {
    throw invalid('budget', { breakdown: breakdown.map((b) => (b.title === 'other' && !b.description ? { description: REQUIRED } : {})) });
  }
  if (new Set(breakdown.map((b) => b.value.currency ?? 'UAH')).size > 1) {
    throw invalid('budget', { breakdown: ['Currency should be identical for all budget breakdown values and budget'] });
  }
};

/** Multi-year budgets (`MULTI_YEAR_BUDGET_PROCEDURES`) span at most 5 budget years; any other exactly one. */
const MULTI_YEAR = ['closeFrameworkAgreementUA'];
const MULTI_YEAR_MAX = 4;
const yearOf = (iso: string) => Number(iso.slice(0, 4));

/** docs/plans.md §Budget: the plan-level budget checks (`validate_budget`), in the reference's order. */
export const budgetFitsProcedure: PlanRule = (plan, createdAt) => {
  const type = plan.tender.procurementMethodType ?? '';
  const { budget } = plan;
  if (type !== 'esco' && !budget) throw invalid('budget', REQUIRED);
  if (!budget) return;
  if (budget.period) {
    const years = yearOf(budget.period.endDate) - yearOf(budget.period.startDate);
    if (MULTI_YEAR.includes(type) && years > MULTI_YEAR_MAX) {
      throw invalid('budget', [`Period startDate and endDate must be within ${MULTI_YEAR_MAX + 1} budget years for ${type}.`]);
    }
    if (!MULTI_YEAR.includes(type) && years !== 0) {
      throw invalid('budget', [`Period startDate and endDate must be within one year for ${type}.`]);
    }
  }
  const { breakdown } = budget;
  if (
    !['belowThreshold', 'reporting', 'esco', ''].includes(type) &&
    appliesFrom('BUDGET_BREAKDOWN_REQUIRED_FROM', createdAt) &&
    !breakdown?.length
  ) {
    throw invalid('budget', ['Breakdown field is required.']);
  }
  if (type !== 'esco' && breakdown?.length) {
    const cents = breakdown.reduce((sum, b) => sum + Math.round(b.value.amount * 100), 0);
    if (cents > Math.round(budget.amount * 100)) {
      throw invalid('budget', ["Sum of the breakdown values amounts can't be greater than budget amount"]);
    }
  }
};

const CPV_PREFIX_NAMES: Record<number, string> = { 3: 'group', 4: 'class' };
/** 3 digits when any code is of the pharmaceutical group 336, else 4 (`get_cpv_prefix_length`). */
const prefixLength = (ids: string[]) => (ids.some((id) => id.startsWith('336')) ? 3 : 4);
const samePrefix = (ids: string[], length: number) => new Set(ids.map((id) => id.slice(0, length))).size === 1;

/** docs/plans.md §Items: unique ids; one CPV class (group for 336) among the items, and the same as the plan's own. */
export const itemsShareCpv: PlanRule = (plan) => {
  const items = plan.items ?? [];
  if (!items.length) return;
  const ids = items.map((i) => i.id);
  if (new Set(ids).size < ids.length) throw invalid('items', ['Item id should be uniq for all items']);
  const codes = items.map((i) => i.classification.id);
  const own = prefixLength(codes);
  if (!samePrefix(codes, own)) throw invalid('items', [`CPV ${CPV_PREFIX_NAMES[own]} of items should be identical`]);
  const all = [...codes, plan.classification.id];
  const withRoot = prefixLength(all);
  if (!samePrefix(all, withRoot)) throw invalid('items', [`CPV ${CPV_PREFIX_NAMES[withRoot]} of items should be identical to root cpv`]);
};

/** Schemes one of which a `99999999-9` item's additional classifications must use (`ADDITIONAL_CLASSIFICATIONS_SCHEMES`). */
const SPECIAL_SCHEMES = ['ДК003', 'ДК015', 'ДК018', 'specialNorms'];

/** docs/plans.md §Items: a `99999999-9` item that lists additional classifications lists one of a special scheme. */
export const notCpvItemsClassified: PlanRule = (plan) => {
  const items = plan.items ?? [];
  const bad = (i: (typeof items)[number]) =>
    i.classification.id === '99999999-9' &&
    i.additionalClassifications?.length &&
    !i.additionalClassifications.some((c) => SPECIAL_SCHEMES.includes(c.scheme));
  if (items.some(bad)) {
    const text = `One of additional classifications should be one of [${SPECIAL_SCHEMES.join(', ')}].`;
    throw invalid(
      'items',
      items.map((i) => (bad(i) ? { additionalClassifications: [text] } : {})),
    );
  }
};

/** docs/plans.md §Organizations: `buyers` required from PLAN_BUYERS_REQUIRED_FROM; a buyer's address and kind as the procuring entity's. */
export const buyersGiven: PlanRule = (plan, createdAt) => {
  const { buyers } = plan;
  if (!buyers?.length) {
    if (appliesFrom('PLAN_BUYERS_REQUIRED_FROM', createdAt)) throw invalid('buyers', REQUIRED);
    return;
  }
  if (!appliesFrom('PLAN_ADDRESS_KIND_REQUIRED_FROM', createdAt)) return;
  const missing = buyers.map((b) => missingAddressKind(b));
  if (missing.some(Boolean))
    throw invalid(
      'buyers',
      missing.map((m) => m ?? {}),
    );
};

/** The model's checks, in the order of the reference's fields. */
export const PLAN_RULES: PlanRule[] = [
  statusPreconditions,
  procuringEntityAddressKind,
  procurementMethodTypeOfMethod,
  budgetPeriodOrYear,
  budgetBreakdownMembers,
  budgetFitsProcedure,
  itemsShareCpv,
  notCpvItemsClassified,
  buyersGiven,
];

const DEFENSE_TYPES = ['aboveThresholdUA.defense', 'simple.defense'];

/** docs/plans.md §Procedures: the defense type the date retired (`aboveThresholdUA.defense`) or did not yet open (`simple.defense`). */
export const unavailableType = (type: string, now: Date): boolean =>
  appliesFrom('RELEASE_SIMPLE_DEFENSE_FROM', now) ? type === 'aboveThresholdUA.defense' : type === 'simple.defense';

/** docs/plans.md §Procedures: which types a procuring entity's `kind` may plan (`_validate_tender_procurement_method_type`). */
export function typesAllowedFor(kind: string, createdAt: string): string[] | null {
  const table = { ...PROCEDURES, ...(appliesFrom('PLAN_ADDRESS_KIND_REQUIRED_FROM', createdAt) ? { '': ['centralizedProcurement'] } : {}) };
  const all = Object.values(table).flat();
  if (kind === 'defense') return all;
  if (kind === 'other') return ['belowThreshold', 'reporting', 'priceQuotation'];
  if (['general', 'special', 'central', 'authority', 'social'].includes(kind)) return all.filter((t) => !DEFENSE_TYPES.includes(t));
  return null;
}

/** Statuses after which only `rationale` may change (docs/plans.md §Statuses). */
const FINAL = ['cancelled', 'complete'];

/** docs/plans.md §Statuses: what a PATCH may not do to a plan's status or to a finished plan (`PlanState.validate_on_patch`). */
export function requireAllowedChange(before: Plan, after: Plan, now: Date): void {
  if (FINAL.includes(before.status)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)] as (keyof Plan)[]);
    keys.delete('rationale');
    for (const key of keys) {
      if (!isDeepStrictEqual(before[key], after[key])) throw apiError(403, `Can't update ${key} in ${before.status} status`);
    }
  }
  const [from, to] = [before.tender.procurementMethodType, after.tender.procurementMethodType];
  if (from !== to && unavailableType(to, now)) {
    throw apiError(422, `Plan tender.procurementMethodType can not be changed from '${from}' to '${to}'`, { name: 'tender' });
  }
  if (after.status === 'draft' && before.status !== 'draft') {
    throw apiError(422, "Plan status can not be changed back to 'draft'", { name: 'status' });
  }
}
