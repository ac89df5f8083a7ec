import type { Complaint, ComplaintStatus } from '../tender.types';

/**
 * `block_complaint_status` of the reference's procedures with complaints (`open/procedure/state/tender.py`): a
 * complaint in one of these holds what it is made on (docs/tenders.md §Complaints: what a complaint holds).
 */
const HOLDING: readonly ComplaintStatus[] = ['pending', 'accepted', 'satisfied'];

export const holds = (complaint: Complaint): boolean => HOLDING.includes(complaint.status);

/** Whether any of `complaints` holds its host. */
export const anyHolds = (complaints: Complaint[] | undefined): boolean => (complaints ?? []).some(holds);
