import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../../http/errors';
import { dateMathOf } from '../../../time/acceleration';
import { formatKyiv, parseIsoDate } from '../../../time/kyiv';
import { calculateTenderFullDate } from '../../../time/periods';
import { enquiryPeriodBeforeTenderEnd, minimumPeriodEnd } from '../../../time/tender-periods';
import { cancellationOutsideAwardComplaintPeriod, notOnlyUnsuccessfulAwards } from '../cancellations/cancellation.rules';
import { missingCriteria } from '../criteria/criteria.schema';
import type { TenderContext, TenderProcedure, TenderRule } from '../procedure';
import { planAuctions } from '../tender.events';
import type { TenderContent } from '../tender.types';
import { openWindows } from './shared-rules';

/*
 * What the open procedures here share from activation to the end of tendering (the reference's `open` package):
 * the tendering period and its computed enquiries (docs/tenders.md §competitiveOrdering periods), and the owner's
 * edits in `active.tendering` (docs/tenders.md §Owner edits).
 */

/** `open/constants.py`: 7 calendar days of tendering, enquiries end 3 days before, answers 3 days after. */
const TENDERING_DAYS = 7;
const ENQUIRY_REGULATION = { days: 3, working: false };
const CLARIFICATIONS = { days: 3, working: false };
const TENDERING_EXTRA = { days: 4, working: false };

const at = (s: string) => parseIsoDate(s)!;

/**
 * tenderPeriod starts now unless given and lasts 7 calendar days, or the config's `minTenderingDuration` where the
 * procedure keeps it; enquiryPeriod is computed (docs/tenders.md §competitiveOrdering periods, §aboveThreshold).
 */
export function tenderingWithComputedEnquiries(t: TenderContent, { now, config }: TenderContext): void {
  const math = dateMathOf(t);
  const tendering = (t.tenderPeriod = { ...t.tenderPeriod });
  tendering.startDate ??= formatKyiv(now);
  const days = config.minTenderingDuration ?? TENDERING_DAYS;
  if (at(tendering.endDate) < minimumPeriodEnd(at(tendering.startDate), { days, working: false }, math)) {
    throw apiError(422, [`tenderPeriod must be at least ${days} full calendar days long`], { name: 'tenderPeriod' });
  }
  const enquiry = enquiryPeriodBeforeTenderEnd(
    { startDate: at(tendering.startDate), endDate: at(tendering.endDate) },
    ENQUIRY_REGULATION,
    CLARIFICATIONS,
    math,
  );
  t.enquiryPeriod = {
    startDate: tendering.startDate,
    endDate: formatKyiv(enquiry.endDate),
    clarificationsUntil: formatKyiv(enquiry.clarificationsUntil),
    ...(t.enquiryPeriod?.invalidationDate ? { invalidationDate: t.enquiryPeriod.invalidationDate } : {}),
  };
}

/**
 * In active.tendering a change must leave at least 4 days of tendering (spec era), and invalidates bids made so
 * far: `enquiryPeriod.invalidationDate` = now and every bid but drafts `invalid` (docs/tenders.md §Owner edits, §Bids).
 */
function invalidateBidsData(t: TenderContent, now: Date): void {
  if (at(t.tenderPeriod.endDate) < calculateTenderFullDate(now, TENDERING_EXTRA, dateMathOf(t))) {
    throw apiError(403, 'tenderPeriod should be extended by 4 days');
  }
  t.enquiryPeriod.invalidationDate = formatKyiv(now);
  for (const bid of t.bids ?? []) if (!['deleted', 'draft'].includes(bid.status ?? '')) bid.status = 'invalid';
}

/** An owner's change of a tender in active.tendering (`open/procedure/state/tender_details.py`). */
export const tenderingExtendedOnChange: TenderRule = (t, { before, now }) => {
  if (before?.status === 'active.tendering' && !isDeepStrictEqual(t, before)) invalidateBidsData(t, now);
};

/** A tender document added in active.tendering counts as a change (spec-era `open/procedure/state/tender_document.py`). */
export const tenderingExtendedOnDocument: TenderRule = (t, { now }) => {
  if (t.status === 'active.tendering') invalidateBidsData(t, now);
};

/**
 * Activation straight into tendering: bids count from now (`invalidationDate`), the spec's missing criteria are
 * added (docs/tenders.md §Criteria) and auctions planned (docs/tenders.md §Auction period).
 */
export const activateTendering: TenderProcedure['activate'] = (t, { now, config }) => {
  t.enquiryPeriod.invalidationDate = formatKyiv(now);
  t.criteria = [...(t.criteria ?? []), ...missingCriteria(t.criteria ?? [], now)];
  planAuctions(t, config);
};

/**
 * Where an open procedure straight into tendering takes changes: questions answered and the tender edited while
 * tendering, cancellations from tendering on with HEAD's list (spec era's plus `noOffer`) and the open checks
 * (docs/tenders.md §Cancellations); the reference's tender, award and cancellation complaint routes
 * (docs/tenders.md §Complaints).
 */
export const openTenderingChanges: Pick<TenderProcedure, 'windows' | 'editableStatuses' | 'cancellations' | 'complaintRoutes'> = {
  windows: {
    ...openWindows,
    questions: ['active.tendering'],
    cancellations: ['active.tendering', 'active.qualification', 'active.awarded'],
  },
  editableStatuses: ['draft', 'active.tendering'],
  cancellations: {
    reasonTypes: ['noDemand', 'unFixable', 'forceMajeure', 'expensesCut', 'noOffer'],
    rules: [cancellationOutsideAwardComplaintPeriod, notOnlyUnsuccessfulAwards],
  },
  complaintRoutes: { read: ['tender', 'award', 'cancellation'], post: ['tender', 'award', 'cancellation'] },
};
