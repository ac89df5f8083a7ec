import Joi from 'joi';
import { list } from '../../core/lists';
import { md5, periodSchema } from '../../core/parts.schema';
import { isoDate } from '../../core/validation';

/**
 * A bid's `requirementResponses` as the request gives them (docs/tenders.md §Requirement responses): HEAD's
 * `RequirementResponse` and `Evidence` (`tender/core/procedure/models/req_response.py`, `evidence.py`). The values
 * are checked against the requirement's `dataType` by the bid rules, which know the tender's criteria.
 */
const text = () => Joi.string().min(1);
const model = (name: string, keys: Joi.PartialSchemaMap) => Joi.object(keys).label(name);
const reference = model('Reference', { id: text().required(), title: text() });
/** `BaseType`: any JSON scalar; the requirement's `dataType` decides what it must convert to. */
const scalar = () => Joi.alternatives(Joi.string(), Joi.number(), Joi.boolean());

/** Texts and their `_en`/`_ru` translations. */
const translated = (names: string[]) => Object.fromEntries(names.flatMap((n) => [n, `${n}_en`, `${n}_ru`]).map((k) => [k, text()]));

export const evidenceSchema = model('Evidence', {
  id: md5(),
  ...translated(['title', 'description']),
  type: Joi.string().valid('document', 'statement'),
  relatedDocument: reference,
});

export const requirementResponseSchema = model('RequirementResponse', {
  id: md5(),
  // The requirement's `title` is the server's (copied from the tender's criteria); one read back may be sent back.
  requirement: model('RequirementReference', { id: text().required(), title: text() }),
  relatedTenderer: reference,
  relatedItem: md5(),
  evidences: list('evidences', evidenceSchema),
  value: scalar(),
  values: list('values', scalar()),
  period: periodSchema.keys({ maxExtendDate: isoDate(), durationInDays: Joi.number().integer(), duration: text() }).label('ExtendPeriod'),
});

export const requirementResponsesSchema = list('requirementResponses', requirementResponseSchema);
