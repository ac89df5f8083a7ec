import { createSchema, enquiryPeriodSchema, patchSchema } from '../tender.schema';
import type { Tender } from '../tender.types';

type Own = Pick<Tender, 'enquiryPeriod'>;

/** belowThreshold's requests (docs/tenders.md §Tender creation): the client gives `enquiryPeriod.endDate` (startDate optional). */
export const createBelowThreshold = createSchema<Own>({ enquiryPeriod: enquiryPeriodSchema }, [], ['tenderPeriod', 'enquiryPeriod']);
export const patchBelowThreshold = patchSchema<Own>({ enquiryPeriod: enquiryPeriodSchema }, 'active.enquiries');
