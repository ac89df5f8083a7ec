import Joi from 'joi';
import {
  agreementsSchema,
  createKeys,
  required,
  statusChoice,
  tenderKeys,
  withEndDate,
  type CreateRequest,
  type TenderRequest,
} from '../tender.schema';
import type { Tender } from '../tender.types';

/** competitiveOrdering's requests (docs/tenders.md §Tender creation): `enquiryPeriod` is computed by the server; one pre-selection agreement. */
export const createCompetitiveOrdering = Joi.object<CreateRequest & Pick<Tender, 'agreements'>, true>({
  ...createKeys,
  agreements: agreementsSchema,
})
  .fork([...required, 'agreements'], (s) => s.required())
  .fork(['tenderPeriod'], (s) => withEndDate(s).required());

/** The PATCH body: the same members, all optional; `status` may name the activation state. */
export const patchCompetitiveOrdering = Joi.object<TenderRequest & Pick<Tender, 'agreements' | 'status'>, true>({
  ...tenderKeys,
  agreements: agreementsSchema,
  status: statusChoice('active.tendering'),
});
