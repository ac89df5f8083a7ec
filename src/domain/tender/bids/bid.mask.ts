import type { MaskTable } from '../../../masking/mask';
import { documentPaths, orgPaths } from '../../../masking/fragments';

/** Spec: Hiding rules, Tender, the rows of `$.bids[*]` (docs/masking.md §Tender, docs/tenders.md §Bids). */
export const BID_MASK: MaskTable = [
  ...orgPaths('$.bids[*].tenderers[*]'),
  ...['participationUrl', 'subcontractingDetails'].flatMap((f) => [`$.bids[*].${f}`, `$.bids[*].lotValues[*].${f}`]),
  ...['documents', 'eligibilityDocuments', 'qualificationDocuments', 'financialDocuments'].flatMap((d) =>
    documentPaths(`$.bids[*].${d}[*]`, ['confidentialityRationale']),
  ),
];
