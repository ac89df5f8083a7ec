import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';
import { issueAccess, type Access } from '../../security/tokens';
import type { StoreSession } from '../../store/port';
import type { Actor } from '../core/actor';
import { formatKyiv } from '../../time/kyiv';
import { dailyId, newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { insertOf, updateOf } from '../save-rules';
import { validated } from '../core/validation';
import { PLAN_RULES, requireAllowedChange, typesAllowedFor, unavailableType } from './plan.rules';
import { withMilestonesAfterEntityChange } from './plan-milestones';
import { patchPlanSchema, planSchema } from './plan.schema';
import type { Plan, PlanBody, PlanChecked, PlanDoc, PlanRequest } from './plan.types';

/** The members the server fills in a plan: ids of organizations, items, breakdown and cancellation; the tender's defaults. */
function withServerMembers(plan: PlanRequest, stamp: string): PlanChecked {
  const org = <O extends object>(o: O) => ({ id: newId(), ...o });
  const { cancellation } = plan;
  // The given cancellation is replaced in place below, so the members keep their order.
  const given: Omit<PlanRequest, 'cancellation'> = plan;
  const out: PlanChecked = {
    ...given,
    procuringEntity: org(plan.procuringEntity),
    tender: { procurementMethod: '', procurementMethodType: '', ...plan.tender },
  };
  if (plan.buyers) out.buyers = plan.buyers.map(org);
  if (plan.items) out.items = plan.items.map(org);
  if (plan.budget) {
    out.budget = { ...plan.budget, currency: plan.budget.currency ?? 'UAH' };
    if (plan.budget.breakdown) out.budget.breakdown = plan.budget.breakdown.map(org);
  }
  if (cancellation)
    out.cancellation = { status: 'pending', ...cancellation, id: cancellation.id ?? newId(), date: cancellation.date ?? stamp };
  return out;
}

/**
 * The plan's state machine (no automatic transition: a plan has no events), docs/plans.md §Statuses:
 * - (none) → draft or scheduled: `POST /plans`, `createPlan` below; draft → scheduled: the owner's PATCH.
 * - → cancelled: an active `cancellation`, made by this function.
 * - → complete: `tender_id` given, made by this function; plan-tenders.ts gives it when a tender is made from the plan
 *   (docs/plans.md §Tenders). Or the owner's PATCH, for the tender types plan.rules.ts allows.
 * - never back to draft, and in cancelled or complete only `rationale` changes: plan.rules.ts.
 */
function withStatusMoves<P extends PlanChecked>(plan: P): P {
  if (plan.cancellation?.status === 'active') return { ...plan, status: 'cancelled' };
  if (plan.tender_id) return { ...plan, status: 'complete' };
  return plan;
}

/** docs/plans.md §Fields: the rationale's `date` is when its description last changed. */
function withRationaleDate<P extends PlanChecked>(plan: P, before: PlanChecked | null, stamp: string): P {
  if (!plan.rationale) return plan;
  const previous = before?.rationale;
  const date = previous && previous.description === plan.rationale.description ? (previous.date ?? stamp) : stamp;
  return { ...plan, rationale: { ...plan.rationale, date } };
}

/** A whole plan as it would be stored: its shape checked, the server's members filled, the rules run (plan.rules.ts). */
function checked(plan: unknown, createdAt: string, now: Date): PlanChecked {
  const valid = withServerMembers(validated<PlanRequest>(planSchema, plan), formatKyiv(now));
  for (const rule of PLAN_RULES) rule(valid, createdAt, now);
  return valid;
}

/** docs/plans.md §Procedures: the availability and kind checks of creation (`PlanState.validate_on_post`), both 403. */
function requirePlannableType(plan: PlanChecked, now: Date, createdAt: string): void {
  const type = plan.tender.procurementMethodType;
  if (unavailableType(type, now)) throw apiError(403, `procedure with procurementMethodType = ${type} is not available`);
  const kind = plan.procuringEntity.kind ?? '';
  const allowed = typesAllowedFor(kind, createdAt);
  if (allowed && !allowed.includes(type)) {
    throw apiError(
      403,
      `procuringEntity with ${kind} kind cannot publish this type of procedure. Procurement method types allowed for this kind: ${allowed.join(', ')}.`,
      { name: 'kind' },
    );
  }
}

/** `POST /plans` (docs/plans.md §Endpoints): broker levels 1, 3 or 5; `scheduled` unless `status` says otherwise. */
export async function createPlan(session: StoreSession, data: unknown, { account, now }: Actor): Promise<{ doc: PlanDoc; access: Access }> {
  const stamp = formatKyiv(now);
  const request = checked(data, stamp, now);
  if (!['1', '3', '5'].some((level) => account.levels.includes(level))) {
    throw apiError(403, 'Broker Accreditation level does not permit plan creation', { location: 'url', name: 'accreditation' });
  }
  requirePlannableType(request, now, stamp);
  const plan = withRationaleDate(withStatusMoves({ status: 'scheduled', ...request }), null, stamp);
  const { access, secrets } = issueAccess();
  const doc: PlanDoc = {
    data: {
      ...plan,
      planID: '',
      owner: account.name,
      datePublished: stamp,
      dateModified: stamp,
      dateCreated: stamp,
      id: newId(),
    },
    secrets,
  };
  await session.commit(
    [insertOf('plans', doc)],
    dailyId('planID', 'UA-P', now, (id) => (doc.data.planID = `${id}-a`)),
  );
  return { doc, access };
}

/** Server-kept members a client never sends back: they survive a PATCH untouched. */
const SERVER_KEYS = ['id', 'planID', 'owner', 'datePublished', 'dateCreated', 'dateModified', 'documents', 'milestones'];
const clientPart = (data: Plan): Partial<PlanBody> =>
  Object.fromEntries(Object.entries(data).filter(([key]) => !SERVER_KEYS.includes(key)));

/**
 * The plan as `change` (a PATCH, or a tender created from it) leaves it, through every check and status move, or
 * null when nothing changes: the one way a plan's later version is made (milestone routes add only their own array).
 */
export function changedPlan(stored: StoredObject<PlanDoc>, change: Partial<PlanBody>, now: Date): PlanDoc | null {
  const before = stored.doc.data;
  const stamp = formatKyiv(now);
  const request = checked({ ...clientPart(before), ...change }, before.dateCreated, now);
  const merged: Plan = { ...before, ...request, status: request.status ?? before.status };
  requireAllowedChange(before, merged, now);
  const after = withRationaleDate(withStatusMoves(withMilestonesAfterEntityChange(before, merged, now)), before, stamp);
  if (isDeepStrictEqual(after, before)) return null;
  return { ...stored.doc, data: { ...after, dateModified: stamp } };
}

/** `PATCH /plans/{id}` by its owner: members replace the stored ones whole (`validate_patch_data_simple`). */
export async function patchPlan(session: StoreSession, stored: StoredObject<PlanDoc>, data: unknown, now: Date): Promise<PlanDoc> {
  const patch = validated<Partial<PlanBody>>(patchPlanSchema, data);
  const current: Partial<PlanBody> = stored.doc.data;
  if (Object.entries(patch).every(([key, value]) => isDeepStrictEqual(current[key as keyof PlanBody], value))) return stored.doc;
  const doc = changedPlan(stored, patch, now);
  if (!doc) return stored.doc;
  // The save may invalidate milestones (docs/plans.md §Milestones); a client never sends them (SERVER_KEYS).
  await session.commit([updateOf(stored, doc, ['milestones'])]);
  return doc;
}
