import { agreementsSchema, createSchema, patchSchema } from '../tender.schema';
import type { Tender } from '../tender.types';

type Own = Pick<Tender, 'agreements'>;

/** competitiveOrdering's requests (docs/tenders.md §Tender creation): `enquiryPeriod` is computed by the server; one pre-selection agreement. */
export const createCompetitiveOrdering = createSchema<Own>({ agreements: agreementsSchema }, ['agreements'], ['tenderPeriod']);
export const patchCompetitiveOrdering = patchSchema<Own>({ agreements: agreementsSchema }, 'active.tendering');
