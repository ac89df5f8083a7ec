import Joi from 'joi';
import { list } from '../../../core/lists';
import { businessOrganizationSchema, valueSchema } from '../../../core/parts.schema';
import { translated } from '../../../core/organization.schema';
import { createSchema, patchSchema } from '../../tender.schema';
import { causeMembers, type TenderCause } from '../cause-details';

/**
 * reporting's requests (docs/tenders.md §reporting): the shared members and the cause's, less those a reporting
 * tender does not have (no periods, lots, features or auction members: a Rogue field).
 */
const NOT_REPORTING = ['tenderPeriod', 'lots', 'features', 'minimalStep', 'guarantee', 'submissionMethod', 'submissionMethodDetails'];
const without = (schema: Joi.ObjectSchema) => schema.fork(NOT_REPORTING, (s) => s.forbidden());

export const createReporting = without(createSchema<TenderCause>(causeMembers, [], []));
export const patchReporting = without(patchSchema<TenderCause>(causeMembers, 'active'));

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
