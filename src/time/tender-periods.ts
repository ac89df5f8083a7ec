import { calculateTenderFullDate, normalizeToMidnight, type DateMathOptions, type DayCount } from './periods';

/**
 * The earliest end a period starting at `startDate` may have to last at least `duration`
 * (`validate_*_duration`: end ≥ full date of the start;
 * docs/tenders.md §belowThreshold periods, §competitiveOrdering periods). E.g. belowThreshold
 * enquiryPeriod {3, working}, tenderPeriod {2, working}; competitiveOrdering long tenderPeriod {7, calendar}.
 */
export function minimumPeriodEnd(startDate: Date, duration: DayCount, options: DateMathOptions = {}): Date {
  return calculateTenderFullDate(startDate, duration, options);
}

/**
 * `clarificationsUntil`: the full date `duration` after `enquiryPeriod.endDate`
 * (belowThreshold {1, working}, competitiveOrdering {3, calendar}).
 */
export function clarificationsUntil(enquiryEndDate: Date, duration: DayCount, options: DateMathOptions = {}): Date {
  return calculateTenderFullDate(enquiryEndDate, duration, options);
}

/**
 * competitiveOrdering's server-computed enquiryPeriod: from tenderPeriod.startDate to `regulation` days before
 * tenderPeriod.endDate (midnight), with clarificationsUntil `clarification` days after that (both {3, calendar}).
 * complaintPeriod shares its start and end.
 */
export function enquiryPeriodBeforeTenderEnd(
  tenderPeriod: { startDate: Date; endDate: Date },
  regulation: DayCount,
  clarification: DayCount,
  options: DateMathOptions = {},
): { startDate: Date; endDate: Date; clarificationsUntil: Date } {
  const endDate = calculateTenderFullDate(tenderPeriod.endDate, { ...regulation, days: -regulation.days }, options);
  return {
    startDate: tenderPeriod.startDate,
    endDate,
    clarificationsUntil: clarificationsUntil(endDate, clarification, options),
  };
}

/** `auctionPeriod.shouldStartAfter`: ceiled to the next Kyiv midnight unless already one (docs/tenders.md §Auction period). */
export function shouldStartAfter(date: Date): Date {
  return normalizeToMidnight(date, true);
}

/** The word the reference's duration errors use: `business` for working days, `calendar` otherwise. */
export function dayKindWord(duration: DayCount): 'business' | 'calendar' {
  return duration.working ? 'business' : 'calendar';
}
