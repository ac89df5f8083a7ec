import { apiError } from '../../../http/errors';
import { dateMathOf } from '../../../time/acceleration';
import { formatKyiv, parseIsoDate } from '../../../time/kyiv';
import { clarificationsUntil, minimumPeriodEnd } from '../../../time/tender-periods';
import type { AwardPolicy, TenderContext, TenderProcedure } from '../procedure';
import { either, only } from '../tender.config';
import { enquiriesEnd } from '../tender.events';
import { openWindows, tenderDefaults, tenderingToEnd } from './shared-rules';
import { procurementMethodIs } from '../tender.rules';
import { createBelowThreshold, patchBelowThreshold } from './below-threshold.schema';
import { BID_RULES } from '../bids/bid.rules';
import { qualifiedDecides } from '../awards/award.rules';
import { patchAward } from '../awards/award.schema';
import { createBid, patchBid } from '../bids/bid.schema';
import type { TenderContent } from '../tender.types';

const ENQUIRIES = { days: 3, working: true };
const TENDERING = { days: 2, working: true };
const CLARIFICATIONS = { days: 1, working: true };
/** `TENDER_PERIOD_START_DATE_STALE_MINUTES` (docs/tenders.md §belowThreshold periods). */
const STALE_START_MS = 10 * 60_000;

/**
 * Awards decided with `qualified`; a 2 working days' stand-still (spec-era `belowthreshold/constants.py`
 * `STAND_STILL_TIME`) that contracts and lots do not wait for (`check_skip_award_complaint_period`, docs/tenders.md §Awards).
 */
const AWARDS: AwardPolicy = {
  create: null,
  schema: patchAward,
  rules: [qualifiedDecides],
  standStill: { days: 2, working: true },
  refusalStandStill: true,
  skipStandStill: true,
};

const at = (s: string) => parseIsoDate(s)!;

/**
 * enquiryPeriod from the client's endDate (startDate defaults to now), tenderPeriod from the enquiry end, both
 * long enough; clarificationsUntil one working day after the enquiry end (docs/tenders.md §belowThreshold periods).
 */
function enquiryThenTendering(t: TenderContent, { now, before }: TenderContext): void {
  const math = dateMathOf(t);
  const enquiry = (t.enquiryPeriod = { ...t.enquiryPeriod });
  enquiry.startDate ??= formatKyiv(now);
  const enquiryEnd = at(enquiry.endDate);
  if (enquiryEnd < minimumPeriodEnd(at(enquiry.startDate), ENQUIRIES, math)) {
    throw apiError(422, ['the enquiryPeriod cannot end earlier than 3 business days after the start'], { name: 'enquiryPeriod' });
  }
  const tendering = (t.tenderPeriod = { ...t.tenderPeriod });
  const startGiven = !!tendering.startDate;
  tendering.startDate ??= enquiry.endDate;
  const tenderingStart = at(tendering.startDate);
  if (!before && startGiven && tenderingStart.getTime() <= now.getTime() - STALE_START_MS) {
    throw apiError(422, 'tenderPeriod.startDate should be in greater than current date', { name: 'tenderPeriod.startDate' });
  }
  if (tenderingStart < enquiryEnd) {
    throw apiError(422, ['period should begin after enquiryPeriod'], { name: 'tenderPeriod' });
  }
  if (at(tendering.endDate) < minimumPeriodEnd(tenderingStart, TENDERING, math)) {
    throw apiError(422, ['tenderPeriod must be at least 2 full business days long'], { name: 'tenderPeriod' });
  }
  enquiry.clarificationsUntil = formatKyiv(clarificationsUntil(enquiryEnd, CLARIFICATIONS, math));
}

export const belowThreshold: TenderProcedure = {
  ...tenderDefaults,
  type: 'belowThreshold',
  procurementMethod: 'open',
  accreditation: { create: ['1', '5'] },
  phases: [
    { status: 'draft', bids: 'sealed', ends: { by: "the owner's activation" } },
    {
      status: 'active.enquiries',
      role: 'enquiries',
      bids: 'sealed',
      ends: { by: 'tenderPeriod.startDate', events: (t) => enquiriesEnd(belowThreshold, t) },
    },
    ...tenderingToEnd(() => belowThreshold, AWARDS),
  ],
  windows: {
    ...openWindows,
    questions: ['active.enquiries', 'active.tendering'],
    cancellations: ['active.enquiries', 'active.tendering', 'active.qualification', 'active.awarded'],
  },
  editableStatuses: ['draft', 'active.enquiries'],
  // Spec era and HEAD: no forceMajeure, no complaint-period check (docs/tenders.md §Cancellations).
  cancellations: { reasonTypes: ['noDemand', 'unFixable', 'expensesCut'], rules: [] },
  // HEAD reads tender and award complaints and takes no complaint; claims are not served (docs/tenders.md §Complaints).
  complaintRoutes: { read: ['tender', 'award'], post: [] },
  config: {
    hasAuction: either(true),
    hasAwardingOrder: either(true),
    hasValueRestriction: either(true),
    valueCurrencyEquality: either(true),
    hasPrequalification: either(false),
    minBidsNumber: { type: 'integer', minimum: 1, maximum: 9, default: 1 },
    hasPreSelectionAgreement: only(false),
    hasTenderComplaints: only(false),
    hasAwardComplaints: only(false),
    hasCancellationComplaints: only(false),
    restricted: only(false),
  },
  schemas: { create: createBelowThreshold, patch: patchBelowThreshold },
  rules: { ...tenderDefaults.rules, save: [...tenderDefaults.rules.save, procurementMethodIs('open')] },
  bids: { accreditation: ['2'], schemas: { create: createBid, patch: patchBid }, rules: BID_RULES },
  awards: AWARDS,
  periods: enquiryThenTendering,
  // Spec era: activation sets status and date only; auctions are planned when tendering starts (docs/tenders.md §Auction period).
  activate: () => undefined,
};
