import type { MaskTable } from '../../masking/mask';
import { AWARD_MASK } from './awards/award.mask';
import { TENDER_CONTRACT_MASK } from './contracts/tender-contract.mask';
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
  ...AWARD_MASK,
  ...TENDER_CONTRACT_MASK,
  ...['documents', 'eligibilityDocuments', 'qualificationDocuments', 'financialDocuments'].flatMap((d) =>
    documentPaths(`$.bids[*].${d}[*]`, ['confidentialityRationale']),
  ),
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
