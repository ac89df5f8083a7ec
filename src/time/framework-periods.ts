import { calculateFullDate, type DateMathOptions, type DayCount } from './periods';

/** `ENQUIRY_PERIOD_DURATION`: the enquiry period lasts 10 full working days after activation. */
export const FRAMEWORK_ENQUIRY_DURATION: DayCount = { days: 10, working: true };
/** `SUBMISSION_STAND_STILL_DURATION`: submissions close 30 calendar days before the qualification period ends. */
export const SUBMISSION_STAND_STILL: DayCount = { days: -30, working: false };
/** `min_submissions_number_days`: the unsuccessful check comes 15 calendar days after `period.startDate`. */
export const MIN_SUBMISSIONS_CHECK_DELAY: DayCount = { days: 15, working: false };

/** Periods a framework gets on activation and keeps recomputing while active (docs/frameworks.md §Framework periods). */
export interface FrameworkPeriods {
  enquiryPeriod: { startDate: Date; endDate: Date; clarificationsUntil: Date };
  period: { startDate: Date; endDate: Date };
  /** `qualificationPeriod.startDate`; the client's `endDate` is stored as given. */
  qualificationPeriodStartDate: Date;
}

/** Stored values a re-run keeps (`calculate_framework_periods` is idempotent on an active framework). */
export interface StoredFrameworkPeriods {
  enquiryPeriod?: { startDate?: Date; endDate?: Date };
  periodStartDate?: Date;
}

/** `config.clarificationUntilDuration` (working days, 3 by default) and the values a re-run keeps. */
export interface FrameworkPeriodsOptions {
  clarificationUntilDuration?: number;
  stored?: StoredFrameworkPeriods;
  dateMath?: DateMathOptions;
}

/**
 * `FrameworkState.calculate_framework_periods`: enquiryPeriod from `now` to the end of the 10th working day
 * (ceil), clarificationsUntil `clarificationUntilDuration` working days later (config, 3), period from `now`
 * (not normalized) to 30 calendar days before the qualification period's end.
 */
export function frameworkActivationPeriods(
  now: Date,
  qualificationPeriodEndDate: Date,
  { clarificationUntilDuration = 3, stored = {}, dateMath = {} }: FrameworkPeriodsOptions = {},
): FrameworkPeriods {
  const enquiryStart = stored.enquiryPeriod?.startDate ?? now;
  const enquiryEnd =
    stored.enquiryPeriod?.endDate ?? calculateFullDate(enquiryStart, FRAMEWORK_ENQUIRY_DURATION, { ...dateMath, ceil: true });
  return {
    enquiryPeriod: {
      startDate: enquiryStart,
      endDate: enquiryEnd,
      clarificationsUntil: calculateFullDate(enquiryEnd, { days: clarificationUntilDuration, working: true }, dateMath),
    },
    period: { startDate: stored.periodStartDate ?? now, endDate: frameworkPeriodEndDate(qualificationPeriodEndDate, dateMath) },
    qualificationPeriodStartDate: enquiryStart,
  };
}

/** `period.endDate`: midnight 30 calendar days before the qualification period's end (also after `/changes`). */
export function frameworkPeriodEndDate(qualificationPeriodEndDate: Date, dateMath: DateMathOptions = {}): Date {
  return calculateFullDate(qualificationPeriodEndDate, SUBMISSION_STAND_STILL, dateMath);
}

/** When the chronograph checks an active framework for too few submissions: ceil(period.startDate) + 15 days. */
export function frameworkSubmissionsCheckDate(periodStartDate: Date, dateMath: DateMathOptions = {}): Date {
  return calculateFullDate(periodStartDate, MIN_SUBMISSIONS_CHECK_DELAY, { ...dateMath, ceil: true });
}

/** Allowed `qualificationPeriod.endDate` range, both ends inclusive (docs/frameworks.md §Qualification-period bounds). */
export interface EndDateBounds {
  earliest: Date;
  latest: Date;
}

/** On activation: 365 to 1461 calendar days from ceil(qualificationPeriod.startDate); outside it, 403. */
export function qualificationPeriodBounds(startDate: Date, dateMath: DateMathOptions = {}): EndDateBounds {
  return boundsFrom(startDate, 365, 1461, dateMath);
}

/** Through `/changes` on an active framework: 30 to 1461 calendar days from ceil(now); outside it, 422. */
export function qualificationPeriodChangeBounds(now: Date, dateMath: DateMathOptions = {}): EndDateBounds {
  return boundsFrom(now, 30, 1461, dateMath);
}

function boundsFrom(date: Date, minDays: number, maxDays: number, dateMath: DateMathOptions): EndDateBounds {
  return {
    earliest: calculateFullDate(date, { days: minDays, working: false }, { ...dateMath, ceil: true }),
    latest: calculateFullDate(date, { days: maxDays, working: false }, { ...dateMath, ceil: true }),
  };
}
