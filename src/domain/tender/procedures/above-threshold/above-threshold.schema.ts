import { createSchema, patchSchema } from '../../tender.schema';

/**
 * aboveThreshold's requests (docs/tenders.md §aboveThreshold): the shared members only; `enquiryPeriod` and
 * `complaintPeriod` are the server's (`Rogue field` when sent).
 */
export const createAboveThreshold = createSchema({}, [], ['tenderPeriod']);
export const patchAboveThreshold = patchSchema({}, 'active.tendering');
