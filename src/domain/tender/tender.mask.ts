import type { MaskTable } from '../../masking/mask';
import { authorPaths, deliveryPaths, documentPaths } from '../../masking/fragments';
import { AWARD_MASK } from './awards/award.mask';
import { BID_MASK } from './bids/bid.mask';
import { TENDER_CONTRACT_MASK } from './contracts/tender-contract.mask';

const COMPLAINTS = '$..complaints[*]';
const OBJECTIONS = `${COMPLAINTS}.objections[*]`;

/** Spec: Hiding rules, Tender (`restricted=true`), row by row (docs/masking.md §Tender). */
export const TENDER_MASK: MaskTable = [
  ...deliveryPaths('$.items[*]'),
  ...BID_MASK,
  ...AWARD_MASK,
  ...TENDER_CONTRACT_MASK,
  ...[
    'title',
    'description',
    'resolution',
    'tendererAction',
    'decision',
    'rejectReasonDescription',
    'reviewPlace',
    'cancellationReason',
  ].map((f) => `${COMPLAINTS}.${f}`),
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
