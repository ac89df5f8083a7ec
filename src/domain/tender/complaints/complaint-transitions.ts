import type Joi from 'joi';
import { apiError } from '../../../http/errors';
import { formatKyiv } from '../../../time/kyiv';
import { validated } from '../../core/validation';
import type { Complaint, Objection } from '../tender.types';
import {
  adminPatchSchema,
  botPatchSchema,
  draftPatchSchemas,
  reviewPatchSchema,
  tendererActionSchema,
  tendererPatchSchema,
  type DraftPatch,
  type ObjectionRequest,
} from './complaint.schema';
import { newId } from '../../core/ids';

/**
 * Who changes a complaint, and how (docs/tenders.md §Complaints: the review body's flow), as the reference's
 * `get_patch_action_model_and_handler` has it for tenders of its 2020 rules: each role's moves, the model its body
 * is read with, and what a move stamps. A move a role may not make is refused before its body is read.
 */

/** The parties that write a complaint's posts and documents: the review body, the complainant, the tender's owner. */
const WRITERS = ['reviewers', 'complaint_owner', 'tender_owner'] as const;
export type ComplaintWriter = (typeof WRITERS)[number];

/** The parties a complaint's PATCH is made by: the writers, the payment bot, the registry's administrator. */
export type ComplaintRole = ComplaintWriter | 'bots' | 'administrator';

export const isWriter = (role: ComplaintRole | null): role is ComplaintWriter => (WRITERS as readonly (string | null)[]).includes(role);

/** One allowed move: the body's model, and what the move sets beside the body. */
interface Move {
  schema: Joi.ObjectSchema;
  stamp?: (c: Complaint, now: string) => void;
}

const cannot = (from: string, to: string) => apiError(403, `Can't update complaint from ${from} to ${to} status`);

/** The move `role` makes from `from` to `to`, or the reference's refusal. `request` is the body as sent. */
function moveOf(
  role: ComplaintRole,
  before: Complaint,
  to: string,
  request: Record<string, unknown>,
  host: keyof typeof draftPatchSchemas,
): Move {
  const from = before.status;
  switch (role) {
    case 'bots':
      if (from === 'draft' && to === 'pending') return { schema: botPatchSchema, stamp: (c, now) => (c.dateSubmitted = now) };
      if (from === 'draft' && to === 'mistaken') return { schema: botPatchSchema, stamp: (c) => (c.rejectReason = 'incorrectPayment') };
      throw cannot(from, to);
    case 'complaint_owner':
      if (from === 'draft' && to === 'mistaken') {
        return { schema: draftPatchSchemas[host], stamp: (c) => (c.rejectReason = 'cancelledByComplainant') };
      }
      if (from === 'draft' && to === 'draft') return { schema: draftPatchSchemas[host] };
      throw cannot(from, to);
    case 'tender_owner':
      if (from === 'satisfied' && to === 'satisfied') return { schema: tendererPatchSchema };
      if (from === 'satisfied' && to === 'resolved' && (request.tendererAction ?? before.tendererAction)) {
        return { schema: tendererPatchSchema, stamp: (c, now) => (c.tendererActionDate = now) };
      }
      if (['pending', 'accepted'].includes(from)) return { schema: tendererActionSchema };
      throw apiError(403, 'Forbidden');
    case 'reviewers':
      if (['pending', 'accepted'].includes(from) && to === from) return { schema: reviewPatchSchema };
      if (from === 'pending' && to === 'invalid') {
        return { schema: reviewPatchSchema, stamp: (c, now) => ((c.dateDecision = now), (c.acceptance = false)) };
      }
      if (from === 'pending' && to === 'accepted') {
        return { schema: reviewPatchSchema, stamp: (c, now) => ((c.dateAccepted = now), (c.acceptance = true)) };
      }
      if (from === 'accepted' && ['declined', 'satisfied'].includes(to)) {
        return { schema: reviewPatchSchema, stamp: (c, now) => (c.dateDecision = now) };
      }
      if (from === 'accepted' && to === 'stopped') {
        return { schema: reviewPatchSchema, stamp: (c, now) => ((c.dateDecision = now), (c.dateCanceled = c.dateCanceled ?? now)) };
      }
      throw cannot(from, to);
    case 'administrator':
      // `AdministratorPatchComplaint`: the fee only, in any status, with no stamp.
      return { schema: adminPatchSchema };
  }
}

/** The complaint as `role`'s PATCH leaves it: the move checked, the body read with its model and merged, the move's stamps. */
export function patchOf(
  role: ComplaintRole,
  before: Complaint,
  data: Record<string, unknown>,
  now: Date,
  host: keyof typeof draftPatchSchemas,
): Complaint {
  const to = typeof data.status === 'string' && data.status ? data.status : before.status;
  const move = moveOf(role, before, to, data, host);
  const patch = validated<DraftPatch & Partial<Complaint>>(move.schema, data);
  const { objections, ...rest } = patch;
  const after = { ...before, ...rest, ...(objections ? { objections: withIds(objections) } : {}) } as Complaint;
  move.stamp?.(after, formatKyiv(now));
  return after;
}

/** Ids for the parts of objections a request leaves without one. */
export const withIds = (objections: ObjectionRequest[] | undefined): Objection[] | undefined =>
  objections?.map((o) => ({
    ...o,
    id: o.id ?? newId(),
    requestedRemedies: o.requestedRemedies.map((r) => ({ ...r, id: r.id ?? newId() })),
    arguments: o.arguments.map(({ evidences, ...a }) => ({
      ...a,
      id: a.id ?? newId(),
      ...(evidences ? { evidences: evidences.map((e) => ({ ...e, id: e.id ?? newId() })) } : {}),
    })),
  }));
