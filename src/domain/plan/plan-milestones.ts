import { isDeepStrictEqual } from 'node:util';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { apiError, forbidden } from '../../http/errors';
import { issueAccess, tokenMatches } from '../../security/tokens';
import type { Doc } from '../../store/port';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { calculateDate } from '../../time/periods';
import { itemById, itemsOf } from '../core/items';
import { newId } from '../core/ids';
import { loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { presentedToken, requireBroker } from '../core/owner';
import { validated } from '../core/validation';
import { requireAllowedChange } from './plan.rules';
import { patchMilestoneSchema, postMilestoneSchema } from './plan.schema';

/** docs/plans.md §Milestones: `scheduled` and `met` milestones are active; an author has one active at a time. */
const ACTIVE = ['scheduled', 'met'];
const milestonesOf = (plan: Doc): Doc[] => itemsOf(plan, 'milestones');
export const findMilestone = (plan: Doc, id: string) => itemById(plan, 'milestones', id, 'milestone_id');
const identifierOf = (org: Doc) => `${org.identifier?.scheme} ${org.identifier?.id}`;

/** A plan's milestones' owner-token hashes, kept beside `data` as the plan's own `secrets` are. */
interface PlanDoc extends ObjectDoc {
  milestoneTokens?: Record<string, string>;
}

const unprocessable = (name: string, description: string) => apiError(422, description, { name });

/** docs/plans.md §Milestones: the author is the plan's procuring entity, with no other active milestone, and it starts scheduled. */
function requireAcceptableMilestone(plan: Doc, milestone: Doc): void {
  const author = identifierOf(milestone.author);
  if (author !== identifierOf(plan.procuringEntity)) throw unprocessable('author', 'Should match plan.procuringEntity');
  if (milestonesOf(plan).some((m) => ACTIVE.includes(m.status) && identifierOf(m.author) === author)) {
    throw unprocessable('author', 'An active milestone already exists for this author');
  }
  if (milestone.status !== 'scheduled') throw unprocessable('status', `Cannot create milestone with status: ${milestone.status}`);
}

/** `POST /plans/{id}/milestones` by any broker: 201 with the milestone and its own owner token (no transfer token). */
export async function addMilestone(ctx: Ctx): Promise<{ milestone: Doc; token: string }> {
  const stored = await loadObject(ctx.state.session, 'plans', ctx.params.id);
  requireBroker(ctx);
  const plan = stored.doc.data;
  const input = validated<Doc>(postMilestoneSchema, bodyData(ctx));
  requireAcceptableMilestone(plan, input);
  const stamp = formatKyiv(ctx.state.now);
  const milestone = {
    ...input,
    author: { id: newId(), ...input.author },
    id: newId(),
    dateModified: stamp,
    owner: ctx.state.viewer.account!.name,
  };
  const after = { ...plan, milestones: [...milestonesOf(plan), milestone] };
  requireAllowedChange(plan, after, ctx.state.now);
  const { access, secrets } = issueAccess();
  const doc: PlanDoc = stored.doc;
  const saved: PlanDoc = {
    ...doc,
    data: { ...after, dateModified: stamp },
    milestoneTokens: { ...doc.milestoneTokens, [milestone.id]: secrets.tokenHash },
  };
  await ctx.state.session.commit([updateOf(stored, saved, ['milestones'])]);
  return { milestone, token: access.token };
}

/** docs/plans.md §Milestones: scheduled → met (with `dateMet`) or notMet; dueDate only while scheduled; description while scheduled or met. */
function requireMilestoneChange(before: Doc, after: Doc): void {
  if (before.status !== after.status && !(before.status === 'scheduled' && ['met', 'notMet'].includes(after.status))) {
    throw apiError(403, `Can't update milestone status from '${before.status}' to '${after.status}'`);
  }
  if (before.dueDate !== after.dueDate && before.status !== 'scheduled')
    throw apiError(403, `Can't update dueDate at '${before.status}' milestone status`);
  if (before.description !== after.description && !ACTIVE.includes(before.status)) {
    throw apiError(403, `Can't update description at '${before.status}' milestone status`);
  }
}

/** `PATCH /plans/{id}/milestones/{milestone_id}` by the milestone's owner (its broker and token). */
export async function patchMilestone(ctx: Ctx): Promise<Doc> {
  const stored = await loadObject(ctx.state.session, 'plans', ctx.params.id);
  const doc: PlanDoc = stored.doc;
  const before = findMilestone(doc.data, ctx.params.milestoneId);
  requireBroker(ctx);
  const owns = ctx.state.viewer.account?.name === before.owner && tokenMatches(presentedToken(ctx), doc.milestoneTokens?.[before.id]);
  if (!owns) throw forbidden();
  const patch = validated<Doc>(patchMilestoneSchema, bodyData(ctx));
  const after = { ...before, ...patch };
  if (isDeepStrictEqual(after, before)) return before;
  requireMilestoneChange(before, after);
  const stamp = formatKyiv(ctx.state.now);
  after.dateModified = stamp;
  if (after.status === 'met' && before.status !== 'met') after.dateMet = stamp;
  const milestones = milestonesOf(doc.data).map((m) => (m.id === before.id ? after : m));
  await ctx.state.session.commit([updateOf(stored, { ...doc, data: { ...doc.data, milestones, dateModified: stamp } }, ['milestones'])]);
  return after;
}

/** Business days before `tender.tenderPeriod.startDate` within which the procuring entity stays (`PROCURING_ENTITY_STANDSTILL`). */
const STANDSTILL = { days: 2, working: true };

/**
 * docs/plans.md §Milestones: a new procuring entity (identifier) invalidates the active milestones, and is refused
 * later than 2 business days before the tender period starts while any is active (`_check_field_change_events`).
 */
export function withMilestonesAfterEntityChange(before: Doc, after: Doc, now: Date): Doc {
  if (identifierOf(before.procuringEntity) === identifierOf(after.procuringEntity)) return after;
  if (!milestonesOf(before).some((m) => ACTIVE.includes(m.status))) return after;
  const start = parseIsoDate(after.tender.tenderPeriod?.startDate ?? '');
  if (!start || calculateDate(now, STANDSTILL).getTime() > start.getTime()) {
    throw apiError(403, "Can't update procuringEntity later than 2 business days before tenderPeriod.StartDate");
  }
  const stamp = formatKyiv(now);
  return {
    ...after,
    milestones: milestonesOf(after).map((m) => (ACTIVE.includes(m.status) ? { ...m, status: 'invalid', dateModified: stamp } : m)),
  };
}
