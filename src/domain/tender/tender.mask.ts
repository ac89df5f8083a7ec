import type { MaskTable } from '../../masking/mask';
import { authorPaths, deliveryPaths, deliveryWithLocationPaths, documentPaths, orgPaths } from '../../masking/fragments';

const COMPLAINTS = '$..complaints[*]';
const OBJECTIONS = `${COMPLAINTS}.objections[*]`;

/** Spec: Hiding rules, Tender (`restricted=true`), row by row (docs/masking.md §Tender). */
export const TENDER_MASK: MaskTable = [
  ...deliveryPaths('$.items[*]'),
  ...orgPaths('$.bids[*].tenderers[*]'),
  ...['participationUrl', 'subcontractingDetails'].flatMap((f) => [`$.bids[*].${f}`, `$.bids[*].lotValues[*].${f}`]),
  ...orgPaths('$.awards[*].suppliers[*]'),
  ...deliveryWithLocationPaths('$.contracts[*].items[*]'),
  ...orgPaths('$.contracts[*].suppliers[*]'),
  ...['documents', 'eligibilityDocuments', 'qualificationDocuments', 'financialDocuments'].flatMap((d) =>
    documentPaths(`$.bids[*].${d}[*]`, ['confidentialityRationale']),
  ),
  ...documentPaths('$.awards[*].documents[*]'),
  ...documentPaths('$.contracts[*].documents[*]'),
  ...['title', 'description', 'resolution', 'tendererAction', 'decision', 'rejectReasonDescription', 'reviewPlace', 'cancellationReason'].map(
    (f) => `${COMPLAINTS}.${f}`,
  ),
  ...documentPaths(`${COMPLAINTS}.documents[*]`),
  `${COMPLAINTS}.posts[*].title`,
  `${COMPLAINTS}.posts[*].description`,
  ...documentPaths(`${COMPLAINTS}.posts[*].documents[*]`),
  `${OBJECTIONS}.title`,
  `${OBJECTIONS}.description`,
  `${OBJECTIONS}.classification.description`,
  `${OBJECTIONS}.requestedRemedies[*].type`,
  `${OBJECTIONS}.requestedRemedies[*].description`,
  `${OBJECTIONS}.arguments[*].description`,
  `${OBJECTIONS}.arguments[*].evidences[*].title`,
  `${OBJECTIONS}.arguments[*].evidences[*].description`,
  ...authorPaths(`${COMPLAINTS}.author`),
  '$..questions[*].title',
  '$..questions[*].description',
  '$..questions[*].answer',
  ...authorPaths('$..questions[*].author'),
];
