import { workdaysOff } from './workdays-off';

/** Which calendar dates (`YYYY-MM-DD`, Kyiv) are days off in addition to Saturdays and Sundays. */
export interface WorkingCalendar {
  daysOff: ReadonlySet<string>;
}

/** The reference's calendar: weekends plus `workdays_off.json` (notes/frameworks.md §3.1). */
export const ukrainianCalendar: WorkingCalendar = { daysOff: new Set(workdaysOff) };

/** True when the date (`YYYY-MM-DD`) is neither a Saturday, a Sunday nor a listed day off. */
export function isWorkingDate(isoDate: string, calendar: WorkingCalendar = ukrainianCalendar): boolean {
  const weekday = new Date(`${isoDate}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !calendar.daysOff.has(isoDate);
}
