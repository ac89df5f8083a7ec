import Joi from 'joi';
import { md5 } from '../../core/parts.schema';
import { translated } from '../../core/organization.schema';
import type { Translated } from '../../core/shapes';
import type { Cancellation } from '../tender.types';

/**
 * Cancellation request shapes (docs/tenders.md §Cancellations): the reference's `PostCancellation` and
 * `PatchCancellation`. Documents come only as files (`…/cancellations/{id}/documents`), so `documents` is no member here.
 */
export const CANCELLATION_STATUSES = ['draft', 'pending', 'active', 'unsuccessful'];

/** What `POST` may carry: its `status` is ignored, its `cancellationOf` the server's. */
export type CancellationRequest = Pick<Cancellation, 'reason'> &
  Partial<Pick<Cancellation, 'relatedLot' | 'reasonType' | 'cancellationOf' | keyof Translated<'reason'>>> & {
    status?: 'draft' | 'pending' | 'active';
  };

/** What `PATCH` may carry. */
export type CancellationPatch = Partial<Pick<Cancellation, 'status' | 'reasonType'>>;

/** `POST /tenders/{id}/cancellations`: `cancellationOf` is the server's (from `relatedLot`); a sent `status` is accepted and ignored. */
export const postCancellationSchema = Joi.object<CancellationRequest, true>({
  ...translated('reason'),
  reasonType: Joi.string(),
  status: Joi.string().valid('draft', 'pending', 'active'),
  cancellationOf: Joi.string().valid('tender', 'lot'),
  relatedLot: md5(),
})
  .fork(['reason'], (s) => s.required())
  .label('Cancellation');

/** `PATCH /tenders/{id}/cancellations/{cancellation_id}`: the status and the reason type only. */
export const patchCancellationSchema = Joi.object<CancellationPatch, true>({
  status: Joi.string().valid(...CANCELLATION_STATUSES),
  reasonType: Joi.string(),
}).label('Cancellation');
