import Joi from 'joi';
import { md5 } from '../../core/parts.schema';

/**
 * Cancellation request shapes (docs/tenders.md §Cancellations): the reference's `PostCancellation` and
 * `PatchCancellation`. Documents come only as files (`…/cancellations/{id}/documents`), so `documents` is no member here.
 */
const text = () => Joi.string().min(1);

export const CANCELLATION_STATUSES = ['draft', 'pending', 'active', 'unsuccessful'];

/** `POST /tenders/{id}/cancellations`: `cancellationOf` is the server's (from `relatedLot`); a sent `status` is accepted and ignored. */
export const postCancellationSchema = Joi.object({
  reason: text().required(),
  reason_en: text(),
  reason_ru: text(),
  reasonType: Joi.string(),
  status: Joi.string().valid('draft', 'pending', 'active'),
  cancellationOf: Joi.string().valid('tender', 'lot'),
  relatedLot: md5(),
}).label('Cancellation');

/** `PATCH /tenders/{id}/cancellations/{cancellation_id}`: the status and the reason type only. */
export const patchCancellationSchema = Joi.object({
  status: Joi.string().valid(...CANCELLATION_STATUSES),
  reasonType: Joi.string(),
}).label('Cancellation');
