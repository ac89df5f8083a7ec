import type { MaskTable } from '../../../masking/mask';
import { documentPaths, orgPaths } from '../../../masking/fragments';

/**
 * Not the spec's: the texts of a requirement response that could name the bidder or repeat a hidden document title
 * (docs/masking.md §Tender, docs/architecture.md §Spec and reference choices).
 */
const RESPONSE_PATHS = [
  ...['title', 'description'].flatMap((f) => [f, `${f}_en`, `${f}_ru`]).map((f) => `$.bids[*].requirementResponses[*].evidences[*].${f}`),
  '$.bids[*].requirementResponses[*].evidences[*].relatedDocument.title',
  '$.bids[*].requirementResponses[*].relatedTenderer.id',
  '$.bids[*].requirementResponses[*].relatedTenderer.title',
];

/** Spec: Hiding rules, Tender, the rows of `$.bids[*]` (docs/masking.md §Tender, docs/tenders.md §Bids). */
export const BID_MASK: MaskTable = [
  ...orgPaths('$.bids[*].tenderers[*]'),
  ...['participationUrl', 'subcontractingDetails'].flatMap((f) => [`$.bids[*].${f}`, `$.bids[*].lotValues[*].${f}`]),
  ...['documents', 'eligibilityDocuments', 'qualificationDocuments', 'financialDocuments'].flatMap((d) =>
    documentPaths(`$.bids[*].${d}[*]`, ['confidentialityRationale']),
  ),
  ...RESPONSE_PATHS,
];
