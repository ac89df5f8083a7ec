import Joi from 'joi';
import {
  createKeys,
  enquiryPeriodSchema,
  required,
  statusChoice,
  tenderKeys,
  withEndDate,
  type CreateRequest,
  type TenderRequest,
} from '../tender.schema';
import type { Tender } from '../tender.types';

/** belowThreshold's requests (docs/tenders.md §Tender creation): the client gives `enquiryPeriod.endDate` (startDate optional). */
export const createBelowThreshold = Joi.object<CreateRequest & Pick<Tender, 'enquiryPeriod'>, true>({
  ...createKeys,
  enquiryPeriod: enquiryPeriodSchema,
})
  .fork(required, (s) => s.required())
  .fork(['tenderPeriod', 'enquiryPeriod'], (s) => withEndDate(s).required());

/** The PATCH body: the same members, all optional; `status` may name the activation state. */
export const patchBelowThreshold = Joi.object<TenderRequest & Pick<Tender, 'enquiryPeriod' | 'status'>, true>({
  ...tenderKeys,
  enquiryPeriod: enquiryPeriodSchema,
  status: statusChoice('active.enquiries'),
});
