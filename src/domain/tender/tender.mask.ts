import type { MaskTable } from '../../masking/mask';
import { addressPaths, deliveryPaths, documentPaths, orgPaths } from '../../masking/fragments';

const contactAll = (prefix: string) =>
  ['telephone', 'email', 'faxNumber', 'url', 'name', 'name_en', 'name_ru'].map((f) => `${prefix}.${f}`);

/** A complaint's or question's `author`: name, identifier id and legal name, address, every contact field. */
const authorPaths = (prefix: string) => [
  ...['name', 'name_en', 'name_ru'].map((f) => `${prefix}.author.${f}`),
  `${prefix}.author.identifier.id`,
  ...['legalName', 'legalName_en', 'legalName_ru'].map((f) => `${prefix}.author.identifier.${f}`),
  ...addressPaths(`${prefix}.author.address`),
  ...contactAll(`${prefix}.author.contactPoint`),
  ...contactAll(`${prefix}.author.additionalContactPoints[*]`),
];

const COMPLAINTS = '$..complaints[*]';
const OBJECTIONS = `${COMPLAINTS}.objections[*]`;

/** Spec: Hiding rules, Tender (`restricted=true`), row by row. */
export const TENDER_MASK: MaskTable = [
  ...deliveryPaths('$.items[*]'),
  ...orgPaths('$.bids[*].tenderers[*]'),
  ...['participationUrl', 'subcontractingDetails'].flatMap((f) => [`$.bids[*].${f}`, `$.bids[*].lotValues[*].${f}`]),
  ...orgPaths('$.awards[*].suppliers[*]'),
  ...deliveryPaths('$.contracts[*].items[*]'),
  '$.contracts[*].items[*].deliveryLocation.latitude',
  '$.contracts[*].items[*].deliveryLocation.longitude',
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
  ...authorPaths(COMPLAINTS),
  '$..questions[*].title',
  '$..questions[*].description',
  '$..questions[*].answer',
  ...authorPaths('$..questions[*]'),
];
