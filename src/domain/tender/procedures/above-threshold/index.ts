import { dateMathOf } from '../../../../time/acceleration';
import { formatKyiv, parseIsoDate } from '../../../../time/kyiv';
import { calculateTenderFullDate } from '../../../../time/periods';
import { patchEligibleAward } from '../../awards/award.schema';
import { BID_RULES } from '../../bids/bid.rules';
import { createCompetitiveOrderingBid, patchCompetitiveOrderingBid } from '../../bids/bid.schema';
import type { AwardPolicy, TenderContext, TenderProcedure } from '../../procedure';
import { either, only } from '../../tender.config';
import { procurementMethodIs } from '../../tender.rules';
import type { TenderContent } from '../../tender.types';
import {
  activateTendering,
  openTenderingChanges,
  tenderingExtendedOnChange,
  tenderingExtendedOnDocument,
  tenderingWithComputedEnquiries,
} from '../open-tendering';
import { tenderDefaults, tenderingToEnd } from '../shared-rules';
import { createAboveThreshold, patchAboveThreshold } from './above-threshold.schema';
import { qualifiedAndEligibleDecide } from './award-decision';

/**
 * Awards decided with `qualified` and `eligible`; a stand-still of 5 full calendar days (`awardComplainDuration`,
 * `AwardState.award_stand_still_working_days` false) that holds the contract and the lot (docs/tenders.md §aboveThreshold).
 */
const AWARDS: AwardPolicy = {
  create: null,
  schema: patchEligibleAward,
  rules: [qualifiedAndEligibleDecide],
  standStill: { days: 5, working: false },
  refusalStandStill: true,
  standStillFullDays: true,
  skipStandStill: false,
};

/** `tenderComplainRegulation`: tender complaints end 3 calendar days before tendering does. */
const COMPLAIN_REGULATION = { days: -3, working: false };

/**
 * The open procedure's periods, and `complaintPeriod` from tendering's start to 3 days before its end
 * (`TenderDetailsMixing.update_complaint_period`, docs/tenders.md §aboveThreshold).
 */
function tenderingWithComplaints(t: TenderContent, ctx: TenderContext): void {
  tenderingWithComputedEnquiries(t, ctx);
  const end = calculateTenderFullDate(parseIsoDate(t.tenderPeriod.endDate)!, COMPLAIN_REGULATION, dateMathOf(t));
  t.complaintPeriod = { startDate: t.tenderPeriod.startDate, endDate: formatKyiv(end) };
}

/**
 * aboveThreshold (the reference's `open` package, openprocurement.api 1.0.274 `tender/open/`): open tendering of 15
 * days or, when the config asks, 7, with questions during its enquiry part, tender, award and cancellation complaints, the auction,
 * awards from bids and a stand-still before the contract (docs/tenders.md §aboveThreshold).
 */
export const aboveThreshold: TenderProcedure = {
  type: 'aboveThreshold',
  procurementMethod: 'open',
  // `OpenTenderDetailsState.tender_create_accreditations`.
  accreditation: { create: ['3', '5'] },
  phases: [{ status: 'draft', bids: 'sealed', ends: { by: "the owner's activation" } }, ...tenderingToEnd(() => aboveThreshold, AWARDS)],
  ...openTenderingChanges,
  // Standards `TenderConfig/aboveThreshold.json` (1.0.274).
  config: {
    hasAuction: either(true),
    hasAwardingOrder: only(true),
    hasValueRestriction: either(true),
    valueCurrencyEquality: only(true),
    hasPrequalification: only(false),
    minBidsNumber: { type: 'integer', minimum: 1, maximum: 1, default: 1 },
    hasPreSelectionAgreement: only(false),
    hasTenderComplaints: only(true),
    hasAwardComplaints: only(true),
    hasCancellationComplaints: only(true),
    restricted: only(false),
    // HEAD's key, kept: the tendering's least length (docs/tenders.md §aboveThreshold).
    minTenderingDuration: { type: 'integer', minimum: 7, maximum: 15, allowed: [7, 15], default: 15 },
  },
  schemas: { create: createAboveThreshold, patch: patchAboveThreshold },
  rules: {
    ...tenderDefaults.rules,
    save: [...tenderDefaults.rules.save, procurementMethodIs('open'), tenderingExtendedOnChange],
    document: [tenderingExtendedOnDocument],
  },
  // `open/procedure/views/bid.py`: level 4; the open bid model (`selfQualified`, requirement responses).
  bids: { accreditation: ['4'], schemas: { create: createCompetitiveOrderingBid, patch: patchCompetitiveOrderingBid }, rules: BID_RULES },
  awards: AWARDS,
  periods: tenderingWithComplaints,
  activate: activateTendering,
};
