import Joi from 'joi';
import { list } from '../../../core/lists';
import { businessOrganizationSchema, valueSchema } from '../../../core/parts.schema';
import { translated } from '../../../core/organization.schema';
import { createSchema, patchSchema } from '../../tender.schema';
import type { CauseDetails, ReportingCause } from './cause';

/**
 * reporting's requests (docs/tenders.md §reporting): no periods, lots, features or auction members; the cause
 * members of the reference's `PostReportingTender` (`cause` and its descriptions are accepted here and refused by
 * the cause rule, as the reference refuses them after its model).
 */
const causeDetailsSchema = Joi.object<CauseDetails, true>({
  code: Joi.string().required(),
  title: Joi.string(),
  title_en: Joi.string(),
  scheme: Joi.string().valid('DECREE1178', 'LAW922', 'DECREE1275'),
  description: Joi.string(),
  description_en: Joi.string(),
  uri: Joi.string(),
}).label('CauseDetails');

const own: Joi.StrictSchemaMap<ReportingCause> = {
  causeDetails: causeDetailsSchema,
  cause: Joi.string(),
  causeDescription: Joi.string(),
  causeDescription_en: Joi.string(),
  causeDescription_ru: Joi.string(),
};

/** Members of the shared request a reporting tender does not have: a Rogue field. */
const NOT_REPORTING = ['tenderPeriod', 'lots', 'features', 'minimalStep', 'guarantee', 'submissionMethod', 'submissionMethodDetails'];
const without = (schema: Joi.ObjectSchema) => schema.fork(NOT_REPORTING, (s) => s.forbidden());

export const createReporting = without(createSchema<ReportingCause>(own, [], []));
export const patchReporting = without(patchSchema<ReportingCause>(own, 'active'));

/** The supplier an award names (`ContactLessSupplier`): one, its contact point optional. */
const suppliers = list('suppliers', businessOrganizationSchema).min(1).max(1);

/** `PostReportingAward`: the supplier and the value, `pending`. */
export const postReportingAward = Joi.object({
  status: Joi.string().valid('pending'),
  suppliers: suppliers.required(),
  value: valueSchema.required(),
  qualified: Joi.boolean(),
}).label('PostReportingAward');

/** `PatchReportingAward`: a pending award's supplier, value and texts, and the owner's decision. */
export const patchReportingAward = Joi.object({
  status: Joi.string().valid('pending', 'unsuccessful', 'active', 'cancelled'),
  qualified: Joi.boolean(),
  suppliers,
  value: valueSchema,
  ...translated('title'),
  ...translated('description'),
}).label('PatchReportingAward');
