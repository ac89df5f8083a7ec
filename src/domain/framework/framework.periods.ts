import { dateMathOf } from '../../time/acceleration';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { frameworkActivationPeriods } from '../../time/framework-periods';
import type { FrameworkDoc } from './framework.types';

const date = (iso: string | undefined) => (iso ? parseIsoDate(iso)! : undefined);

/**
 * `calculate_framework_periods` on an active framework's data: enquiryPeriod, period and
 * qualificationPeriod.startDate, keeping the values a re-run must keep (docs/frameworks.md §Framework periods).
 */
export function withActivePeriods(doc: FrameworkDoc, now: Date): FrameworkDoc {
  const data = doc.data;
  const periods = frameworkActivationPeriods(now, date(data.qualificationPeriod.endDate)!, {
    clarificationUntilDuration: doc.config?.clarificationUntilDuration,
    dateMath: dateMathOf(data),
    stored: {
      enquiryPeriod: { startDate: date(data.enquiryPeriod?.startDate), endDate: date(data.enquiryPeriod?.endDate) },
      periodStartDate: date(data.period?.startDate),
    },
  });
  const { enquiryPeriod, period } = periods;
  return {
    ...doc,
    data: {
      ...data,
      enquiryPeriod: {
        startDate: formatKyiv(enquiryPeriod.startDate),
        endDate: formatKyiv(enquiryPeriod.endDate),
        clarificationsUntil: formatKyiv(enquiryPeriod.clarificationsUntil),
      },
      period: { startDate: formatKyiv(period.startDate), endDate: formatKyiv(period.endDate) },
      qualificationPeriod: { ...data.qualificationPeriod, startDate: formatKyiv(periods.qualificationPeriodStartDate) },
    },
  };
}
