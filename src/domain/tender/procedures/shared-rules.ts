import { awardingEvents } from '../awards/check-tender-status';
import type { AwardPolicy, TenderPhase, TenderProcedure, TenderWindows } from '../procedure';
import { only, type ConfigSpec } from '../tender.config';
import { tenderingEnds } from '../tender.events';
import {
  cpvClassOfItemsIdentical,
  featuresRelateToExisting,
  itemsHaveRelatedLot,
  itemsRelatedLotExists,
  milestonesConsistent,
  minimalStepFitsValue,
  periodsInOrder,
  specialAdditionalClassification,
  submissionMethodOnlyWithAuction,
} from '../tender.rules';

/** Rules every tender procedure runs: on every save, when activated, on every question asked and document added. */
export const tenderDefaults: { rules: TenderProcedure['rules'] } = {
  rules: {
    save: [
      periodsInOrder,
      itemsRelatedLotExists,
      cpvClassOfItemsIdentical,
      specialAdditionalClassification,
      featuresRelateToExisting,
      milestonesConsistent,
      submissionMethodOnlyWithAuction,
      minimalStepFitsValue,
    ],
    activate: [itemsHaveRelatedLot],
    question: [],
    document: [],
  },
};

type Phased = Pick<TenderProcedure, 'phases'>;

/**
 * The phases of an open procedure from tendering on (docs/tenders.md §End of tendering, §Auction, §Awards;
 * docs/tenders.md §Contracts of a tender): bids sealed until the auction is over; `self` is the procedure they
 * belong to, asked when an event applies.
 */
export const tenderingToEnd = (self: () => Phased, awards: AwardPolicy): TenderPhase[] => [
  {
    status: 'active.tendering',
    role: 'tendering',
    bids: 'sealed',
    ends: { by: 'tenderPeriod.endDate', events: (t) => tenderingEnds(self(), t) },
  },
  { status: 'active.auction', role: 'auction', bids: 'sealed', ends: { by: "the auction module's results" } },
  {
    status: 'active.qualification',
    role: 'qualification',
    ends: { by: "the owner's award decisions; a lot's failed awarding at its stand-still's end", events: awardingEvents(awards, false) },
  },
  {
    status: 'active.awarded',
    role: 'awarded',
    ends: { by: "the winner's contract signed; a failed awarding at its stand-still's end", events: awardingEvents(awards, true) },
  },
  { status: 'complete' },
  { status: 'unsuccessful' },
  { status: 'cancelled' },
];

/**
 * The windows both open procedures here share (docs/tenders.md §Bids, §Requirement responses, §Auction, §Awards).
 * The evidence lists are the reference's core validators' own, which its refusal texts print.
 */
/**
 * The windows of the limited procedures (reporting, negotiation): no bids, questions or auction; the owner's awards
 * and cancellations while the tender is `active` (`validate_award_operation_not_in_active_status`).
 */
export const limitedWindows: Omit<TenderWindows, 'complaints'> = {
  bids: [],
  bidDocuments: [],
  evidence: [],
  winnerEvidence: [],
  winnerResponses: [],
  questions: [],
  auction: [],
  awards: ['active'],
  awardDocuments: ['active'],
  cancellations: ['active'],
};

/**
 * The config of the limited procedures (standards `TenderConfig/{reporting,negotiation,negotiation.quick}.json`): every
 * member fixed; they differ only in whether awards and cancellations take complaints.
 */
export const limitedConfig = (complaints: boolean): ConfigSpec => ({
  hasAuction: only(false),
  hasAwardingOrder: only(true),
  hasValueRestriction: only(true),
  valueCurrencyEquality: only(true),
  hasPrequalification: only(false),
  minBidsNumber: { type: 'integer', minimum: 1, maximum: 1, default: 1 },
  hasPreSelectionAgreement: only(false),
  hasTenderComplaints: only(false),
  hasAwardComplaints: only(complaints),
  hasCancellationComplaints: only(complaints),
  restricted: only(false),
});

export const openWindows: Omit<TenderWindows, 'questions' | 'cancellations'> = {
  bids: ['active.tendering'],
  bidDocuments: ['active.tendering', 'active.qualification', 'active.awarded'],
  evidence: ['draft', 'draft.pending', 'draft.stage2', 'active.tendering'],
  winnerEvidence: ['active.awarded', 'active.qualification'],
  winnerResponses: ['active.awarded', 'active.qualification', 'active.pre-qualification'],
  auction: ['active.auction'],
  awards: ['active.qualification', 'active.awarded'],
  awardDocuments: ['active.qualification'],
  complaints: null,
};
