import { isDeepStrictEqual } from 'node:util';
import { isBroker, type Account } from '../../http/auth';
import { apiError } from '../../http/errors';
import { issueAccess, tokenMatches } from '../../security/tokens';
import type { StoreSession } from '../../store/port';
import type { Actor } from '../core/actor';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { calculateDate } from '../../time/periods';
import { itemById, itemsOf } from '../core/items';
import { newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { validated } from '../core/validation';
import { requireAllowedChange } from './plan.rules';
import { patchMilestoneSchema, postMilestoneSchema, type MilestoneRequest } from './plan.schema';
import type { Plan, PlanDoc, PlanMilestone, PlanMilestoneStatus, PlanOrganization } from './plan.types';

/** docs/plans.md §Milestones: `scheduled` and `met` milestones are active; an author has one active at a time. */
const ACTIVE: PlanMilestoneStatus[] = ['scheduled', 'met'];
const milestonesOf = (plan: Plan) => itemsOf(plan, 'milestones');
export const findMilestone = (plan: Plan, id: string) => itemById(plan, 'milestones', id, 'milestone_id');
const identifierOf = (org: Pick<PlanOrganization, 'identifier'>) => `${org.identifier?.scheme} ${org.identifier?.id}`;

const unprocessable = (name: string, description: string) => apiError(422, description, { name });

/** docs/plans.md §Milestones: the author is the plan's procuring entity, with no other active milestone, and it starts scheduled. */
function requireAcceptableMilestone(plan: Plan, milestone: MilestoneRequest): void {
  const author = identifierOf(milestone.author);
  if (author !== identifierOf(plan.procuringEntity)) throw unprocessable('author', 'Should match plan.procuringEntity');
  if (milestonesOf(plan).some((m) => ACTIVE.includes(m.status) && identifierOf(m.author) === author)) {
    throw unprocessable('author', 'An active milestone already exists for this author');
  }
  if (milestone.status !== 'scheduled') throw unprocessable('status', `Cannot create milestone with status: ${milestone.status}`);
}

/** `POST /plans/{id}/milestones` by any broker: 201 with the milestone and its own owner token (no transfer token). */
export async function addMilestone(
  session: StoreSession,
  stored: StoredObject<PlanDoc>,
  data: unknown,
  { account, now }: Actor,
): Promise<{ milestone: PlanMilestone; token: string }> {
  const plan = stored.doc.data;
  const input = validated<MilestoneRequest>(postMilestoneSchema, data);
  requireAcceptableMilestone(plan, input);
  const stamp = formatKyiv(now);
  const milestone: PlanMilestone = {
    ...input,
    author: { id: newId(), ...input.author },
    id: newId(),
    dateModified: stamp,
    owner: account.name,
  };
  const after: Plan = { ...plan, milestones: [...milestonesOf(plan), milestone] };
  requireAllowedChange(plan, after, now);
  const { access, secrets } = issueAccess();
  const { doc } = stored;
  const saved: PlanDoc = {
    ...doc,
    data: { ...after, dateModified: stamp },
    milestoneTokens: { ...doc.milestoneTokens, [milestone.id]: secrets.tokenHash },
  };
  await session.commit([updateOf(stored, saved, ['milestones'])]);
  return { milestone, token: access.token };
}

/** docs/plans.md §Milestones: scheduled → met (with `dateMet`) or notMet; dueDate only while scheduled; description while scheduled or met. */
function requireMilestoneChange(before: PlanMilestone, after: PlanMilestone): void {
  if (before.status !== after.status && !(before.status === 'scheduled' && ['met', 'notMet'].includes(after.status))) {
    throw apiError(403, `Can't update milestone status from '${before.status}' to '${after.status}'`);
  }
  if (before.dueDate !== after.dueDate && before.status !== 'scheduled')
    throw apiError(403, `Can't update dueDate at '${before.status}' milestone status`);
  if (before.description !== after.description && !ACTIVE.includes(before.status)) {
    throw apiError(403, `Can't update description at '${before.status}' milestone status`);
  }
}

/** A plan's milestone, for a route on it: 404 for an unknown one. */
export interface LoadedMilestone {
  stored: StoredObject<PlanDoc>;
  milestone: PlanMilestone;
}

/** Whether `account`, presenting `token`, owns the milestone: its broker, with the milestone's own token. */
export function holdsMilestone(account: Account | null, token: string | null, { stored, milestone }: LoadedMilestone): boolean {
  return isBroker({ account }) && account?.name === milestone.owner && tokenMatches(token, stored.doc.milestoneTokens?.[milestone.id]);
}

/** `PATCH /plans/{id}/milestones/{milestone_id}` by the milestone's owner (`holdsMilestone`). */
export async function patchMilestone(
  session: StoreSession,
  { stored, milestone: before }: LoadedMilestone,
  data: unknown,
  now: Date,
): Promise<PlanMilestone> {
  const { doc } = stored;
  const patch = validated<Partial<PlanMilestone>>(patchMilestoneSchema, data);
  const after: PlanMilestone = { ...before, ...patch };
  if (isDeepStrictEqual(after, before)) return before;
  requireMilestoneChange(before, after);
  const stamp = formatKyiv(now);
  after.dateModified = stamp;
  if (after.status === 'met' && before.status !== 'met') after.dateMet = stamp;
  const milestones = milestonesOf(doc.data).map((m) => (m.id === before.id ? after : m));
  await session.commit([updateOf(stored, { ...doc, data: { ...doc.data, milestones, dateModified: stamp } }, ['milestones'])]);
  return after;
}

/** Business days before `tender.tenderPeriod.startDate` within which the procuring entity stays (`PROCURING_ENTITY_STANDSTILL`). */
const STANDSTILL = { days: 2, working: true };

/**
 * docs/plans.md §Milestones: a new procuring entity (identifier) invalidates the active milestones, and is refused
 * later than 2 business days before the tender period starts while any is active (`_check_field_change_events`).
 */
export function withMilestonesAfterEntityChange(before: Plan, after: Plan, now: Date): Plan {
  if (identifierOf(before.procuringEntity) === identifierOf(after.procuringEntity)) return after;
  if (!milestonesOf(before).some((m) => ACTIVE.includes(m.status))) return after;
  const start = parseIsoDate(after.tender.tenderPeriod?.startDate ?? '');
  if (!start || calculateDate(now, STANDSTILL).getTime() > start.getTime()) {
    throw apiError(403, "Can't update procuringEntity later than 2 business days before tenderPeriod.StartDate");
  }
  const stamp = formatKyiv(now);
  return {
    ...after,
    milestones: milestonesOf(after).map((m) => (ACTIVE.includes(m.status) ? { ...m, status: 'invalid' as const, dateModified: stamp } : m)),
  };
}
