import Joi from 'joi';
import { list } from '../../../core/lists';
import { businessOrganizationSchema, md5, valueSchema } from '../../../core/parts.schema';
import { translated } from '../../../core/organization.schema';
import { createSchema, patchSchema } from '../../tender.schema';
import { causeMembers, type TenderCause } from '../cause-details';

/**
 * negotiation's and negotiation.quick's requests (docs/tenders.md §negotiation and negotiation.quick): the shared
 * members with lots, and the cause's, less the periods, features and auction members (a Rogue field).
 */
const NOT_NEGOTIATION = ['tenderPeriod', 'features', 'minimalStep', 'guarantee', 'submissionMethod', 'submissionMethodDetails'];
const without = (schema: Joi.ObjectSchema) => schema.fork(NOT_NEGOTIATION, (s) => s.forbidden());

export const createNegotiation = without(createSchema<TenderCause>(causeMembers, [], []));
export const patchNegotiation = without(patchSchema<TenderCause>(causeMembers, 'active'));

/** The supplier an award names (`Supplier`): one, with its contact point. */
const suppliers = list(
  'suppliers',
  businessOrganizationSchema.fork(['contactPoint'], (s) => s.required()),
)
  .min(1)
  .max(1);

/** `PostNegotiationAward`: the supplier, the value and the lot, `pending`. */
export const postNegotiationAward = Joi.object({
  status: Joi.string().valid('pending'),
  suppliers: suppliers.required(),
  value: valueSchema.required(),
  qualified: Joi.boolean(),
  lotID: md5(),
}).label('PostNegotiationAward');

/** `PatchNegotiationAward`: a pending award's supplier, value, lot and texts, and the owner's decision. */
export const patchNegotiationAward = Joi.object({
  status: Joi.string().valid('pending', 'unsuccessful', 'active', 'cancelled'),
  qualified: Joi.boolean(),
  suppliers,
  value: valueSchema,
  lotID: md5(),
  ...translated('title'),
  ...translated('description'),
}).label('PatchNegotiationAward');
