import Joi from 'joi';
import { list } from '../../core/lists';
import { md5, model, periodSchema } from '../../core/parts.schema';
import { text, translated } from '../../core/organization.schema';
import { isoDate } from '../../core/validation';
import type { EvidenceRequest, Reference, RequirementResponseRequest } from '../tender.types';

/**
 * A bid's `requirementResponses` as the request gives them (docs/tenders.md §Requirement responses): HEAD's
 * `RequirementResponse` and `Evidence` (`tender/core/procedure/models/req_response.py`, `evidence.py`). The values
 * are checked against the requirement's `dataType` by the bid rules, which know the tender's criteria. `model<T>`
 * builds `Joi.object<T, true>`, which holds each schema's members to the tender's types (tender.types.ts).
 */
const reference = model<Reference>('Reference', { id: text().required(), title: text() });
/** `BaseType`: any JSON scalar; the requirement's `dataType` decides what it must convert to. */
const scalar = () => Joi.alternatives(Joi.string(), Joi.number(), Joi.boolean());

export const evidenceSchema = model<EvidenceRequest>('Evidence', {
  id: md5(),
  ...translated('title'),
  ...translated('description'),
  type: Joi.string().valid('document', 'statement'),
  relatedDocument: reference,
});

export const requirementResponseSchema = model<RequirementResponseRequest>('RequirementResponse', {
  id: md5(),
  // The requirement's `title` is the server's (copied from the tender's criteria); one read back may be sent back.
  requirement: model<Reference>('RequirementReference', { id: text().required(), title: text() }),
  relatedTenderer: reference,
  relatedItem: md5(),
  evidences: list('evidences', evidenceSchema),
  value: scalar(),
  values: list('values', scalar()),
  period: periodSchema.keys({ maxExtendDate: isoDate(), durationInDays: Joi.number().integer(), duration: text() }).label('ExtendPeriod'),
});

export const requirementResponsesSchema = list('requirementResponses', requirementResponseSchema);
