import { workdaysOff } from './workdays-off';

/** Which calendar dates (`YYYY-MM-DD`, Kyiv) are days off in addition to Saturdays and Sundays. */
export interface WorkingCalendar {
  daysOff: ReadonlySet<string>;
}

/** The reference's calendar: weekends plus `workdays_off.json` (docs/platform.md §Working-day calendar). */
export const ukrainianCalendar: WorkingCalendar = { daysOff: new Set(workdaysOff) };

const DAY = 86_400_000;
/** Each calendar's days off as day numbers (days since 1970-01-01), made on first use. */
const daysOffByNumber = new WeakMap<WorkingCalendar, ReadonlySet<number>>();

/**
 * True when the day of a Kyiv wall-clock reading (its milliseconds read as UTC) is neither a Saturday, a Sunday
 * nor a listed day off. The working-day arithmetic asks this for every day it steps over, so days are compared
 * as day numbers: formatting each day as `YYYY-MM-DD` was a third of its time.
 */
export function isWorkingWallDay(wallMs: number, calendar: WorkingCalendar = ukrainianCalendar): boolean {
  const day = Math.floor(wallMs / DAY);
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  if (weekday === 0 || weekday === 6) return false;
  let daysOff = daysOffByNumber.get(calendar);
  if (!daysOff) {
    daysOff = new Set([...calendar.daysOff].map((date) => Date.parse(`${date}T00:00:00Z`) / DAY));
    daysOffByNumber.set(calendar, daysOff);
  }
  return !daysOff.has(day);
}
