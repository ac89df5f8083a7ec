import { isWorkingWallDay, ukrainianCalendar, type WorkingCalendar } from './calendar';
import { fromKyivWallMs, kyivOffsetMs } from './kyiv';
import { acceleratedDate, type DayCount } from './acceleration';

export type { DayCount } from './acceleration';

const DAY = 86_400_000;

/**
 * From this instant on, results are re-localized to Kyiv wall-clock time (DST aware); for earlier starts they
 * keep the start's UTC offset (`api/utils.py::calculate_date`, docs/platform.md §Date arithmetic).
 */
export const DST_AWARE_PERIODS_FROM = new Date('2020-10-25T03:00:00+03:00');

/** Options of the date arithmetic; the defaults are what the reference uses for every object today. */
export interface DateMathOptions {
  calendar?: WorkingCalendar;
  /**
   * dateorro's `midnight`: a forward working-day count from 00:00 ends at 00:00 after its last working day,
   * even when that is a day off. Always on since WORKING_DATE_ALLOW_MIDNIGHT_FROM (2020-01-24); off, the
   * result is 00:00 of the next working day.
   */
  midnight?: boolean;
  /**
   * The sandbox speed-up (`accelerator=N` in an object's details): above 1, every count is `days / N` of plain
   * milliseconds, with no normalization and no working days, as `accelerated_tender` does.
   */
  accelerator?: number;
}

/** `calculate_date`: `date` plus `count`, with no normalization; working days follow dateorro exactly. */
export function calculateDate(date: Date, count: DayCount, options: DateMathOptions = {}): Date {
  if (isAccelerated(options)) return acceleratedDate(date, count, options.accelerator);
  return instant(addDays(aware(date), count, options));
}

/** `calculate_normalized_date`: a non-midnight date drops to 00:00 Kyiv of its day, or of the next day with `ceil`. */
export function normalizeToMidnight(date: Date, ceil = false): Date {
  return instant(normalized(aware(date), ceil));
}

/** `calculate_full_date`: normalize `date` to midnight (ceil on request), then add `count`. */
export function calculateFullDate(date: Date, count: DayCount, options: DateMathOptions & { ceil?: boolean } = {}): Date {
  if (isAccelerated(options)) return acceleratedDate(date, count, options.accelerator);
  return instant(addDays(normalized(aware(date), options.ceil ?? false), count, options));
}

const isAccelerated = (options: DateMathOptions): options is DateMathOptions & { accelerator: number } => (options.accelerator ?? 1) > 1;

/** `calculate_tender_full_date`: `calculateFullDate` that ceils exactly when the count goes forward. */
export function calculateTenderFullDate(date: Date, count: DayCount, options: DateMathOptions = {}): Date {
  return calculateFullDate(date, count, { ...options, ceil: count.days > 0 });
}

/**
 * A Python aware datetime as the reference handles it: a wall-clock reading (as UTC epoch ms) plus the fixed
 * offset it carries. Arithmetic moves the wall clock and keeps the offset until the result is re-localized.
 */
interface Aware {
  wall: number;
  offset: number;
}

/** `dt_from_iso` reads stored dates in Kyiv time first (docs/platform.md §Date arithmetic). */
function aware(date: Date): Aware {
  const offset = kyivOffsetMs(date);
  return { wall: date.getTime() + offset, offset };
}

function instant(value: Aware): Date {
  return new Date(value.wall - value.offset);
}

function relocalized(start: Aware, result: Aware): Aware {
  if (instant(start).getTime() <= DST_AWARE_PERIODS_FROM.getTime()) return result;
  return { wall: result.wall, offset: result.wall - fromKyivWallMs(result.wall).getTime() };
}

function normalized(value: Aware, ceil: boolean): Aware {
  const time = timeOfDay(value);
  if (time === 0) return relocalized(value, value);
  return relocalized(value, shifted(value, (ceil ? DAY : 0) - time));
}

function addDays(start: Aware, { days, working }: DayCount, options: DateMathOptions): Aware {
  if (!Number.isInteger(days)) throw new RangeError(`whole days expected, got ${days}`);
  const result = working
    ? addWorkingDays(start, days, options.calendar ?? ukrainianCalendar, options.midnight ?? true)
    : shifted(start, days * DAY);
  return relocalized(start, result);
}

/** dateorro `calc_working_datetime`; the time of day is kept through every step. */
function addWorkingDays(start: Aware, days: number, calendar: WorkingCalendar, midnight: boolean): Aware {
  if (days === 0) throw new RangeError('working-day count must not be zero');
  const step = days < 0 ? -DAY : DAY;
  let current = nearestWorking(start, step, calendar);
  for (let i = 1; i < Math.abs(days); i += 1) current = nextWorking(current, step, calendar);
  if (midnight && step > 0 && timeOfDay(current) === 0) return shifted(current, DAY);
  return nextWorking(current, step, calendar);
}

/**
 * dateorro `calc_nearest_working_datetime`: a day off moves to 00:00 of the next working day (backwards: to 00:00
 * of the day after the previous working day).
 */
function nearestWorking(value: Aware, step: number, calendar: WorkingCalendar): Aware {
  if (isWorking(value, calendar)) return value;
  let current = shifted(value, -timeOfDay(value) + (step > 0 ? DAY : 0));
  while (!isWorking(current, calendar)) current = shifted(current, step);
  return step > 0 ? current : shifted(current, DAY);
}

function nextWorking(value: Aware, step: number, calendar: WorkingCalendar): Aware {
  let current = shifted(value, step);
  while (!isWorking(current, calendar)) current = shifted(current, step);
  return current;
}

function isWorking(value: Aware, calendar: WorkingCalendar): boolean {
  return isWorkingWallDay(value.wall, calendar);
}

function shifted(value: Aware, ms: number): Aware {
  return { wall: value.wall + ms, offset: value.offset };
}

function timeOfDay(value: Aware): number {
  return ((value.wall % DAY) + DAY) % DAY;
}
