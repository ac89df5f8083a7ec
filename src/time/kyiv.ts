import { DateTime } from 'luxon';

/** The reference's time zone (`api/constants.py::TZ`, Europe/Kiev; docs/platform.md §Time and dates). */
export const KYIV_ZONE = 'Europe/Kyiv';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Kyiv wall-clock parts of an instant; `weekday` is ISO (1 = Monday … 7 = Sunday). */
export interface KyivParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
}

/** Since 1930 Kyiv's offsets are whole hours, so every change of offset falls on a whole UTC hour. */
const WHOLE_HOURS_FROM = Date.UTC(1930, 0, 1);
const offsetByHour = new Map<number, number>();

/**
 * The offset of Kyiv from UTC at the instant, in milliseconds (whole seconds: local mean time is +02:02:04).
 * Cached per UTC hour since 1930: luxon asks Intl for the zone's parts on every call, which was 12 % of the
 * CPU time of POST /tenders.
 */
export function kyivOffsetMs(date: Date | number): number {
  const ms = +date;
  if (ms < WHOLE_HOURS_FROM) return Math.round(DateTime.fromMillis(ms, { zone: KYIV_ZONE }).offset * 60) * 1000;
  const hour = Math.floor(ms / HOUR);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    offset = Math.round(DateTime.fromMillis(hour * HOUR, { zone: KYIV_ZONE }).offset * 60) * 1000;
    if (offsetByHour.size >= 100_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

/**
 * The Kyiv wall clock of an instant as a "naive" millisecond count: the UTC epoch value of the same
 * wall-clock reading, so that calendar arithmetic on it is plain addition.
 */
export function kyivWallMs(date: Date | number): number {
  return +date + kyivOffsetMs(date);
}

/**
 * The instant at which Kyiv's wall clock shows `wallMs`, localized as pytz `TZ.localize(naive)` does
 * (is_dst=False): an ambiguous reading (autumn) and a skipped one (spring) both take the standard offset.
 */
export function fromKyivWallMs(wallMs: number): Date {
  const around = new Set([kyivOffsetMs(wallMs - 12 * HOUR), kyivOffsetMs(wallMs + 12 * HOUR)]);
  const valid = [...around].filter((offset) => kyivOffsetMs(wallMs - offset) === offset);
  const offset = Math.min(...(valid.length > 0 ? valid : [...around]));
  return new Date(wallMs - offset);
}

/** The Kyiv wall-clock parts of an instant. */
export function kyivParts(date: Date): KyivParts {
  const wall = new Date(kyivWallMs(date));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    millisecond: wall.getUTCMilliseconds(),
    weekday: wall.getUTCDay() === 0 ? 7 : wall.getUTCDay(),
  };
}

/** The instant of a Kyiv wall-clock reading (missing time parts are zero), localized as `fromKyivWallMs`. */
export function fromKyivParts(parts: {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
}): Date {
  const { year, month, day, hour = 0, minute = 0, second = 0, millisecond = 0 } = parts;
  return fromKyivWallMs(wallMsOf(year, month, day, hour, minute, second, millisecond));
}

/** The `YYYY-MM-DD` Kyiv calendar date of an instant. */
export function kyivIsoDate(date: Date): string {
  return new Date(kyivWallMs(date)).toISOString().slice(0, 10);
}

/**
 * Python's `datetime.isoformat()` in Kyiv, as the reference prints every server timestamp:
 * `YYYY-MM-DDTHH:MM:SS[.ffffff]+HH:MM`, the 6-digit fraction only when non-zero (docs/platform.md §Time and dates).
 */
export function formatKyiv(date: Date): string {
  return formatWithOffset(date, kyivOffsetMs(date));
}

function formatWithOffset(date: Date, offset: number): string {
  const wall = new Date(+date + offset);
  const ms = wall.getUTCMilliseconds();
  const fraction = ms === 0 ? '' : `.${pad(ms, 3)}000`;
  return `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1, 2)}-${pad(wall.getUTCDate(), 2)}T${pad(
    wall.getUTCHours(),
    2,
  )}:${pad(wall.getUTCMinutes(), 2)}:${pad(wall.getUTCSeconds(), 2)}${fraction}${formatOffset(offset)}`;
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Kyiv's two offsets, which a client's date keeps (the reference keeps every offset a client gives). */
const KYIV_OFFSETS = new Set([2 * HOUR, 3 * HOUR]);

/**
 * A client's ISO 8601 date or date-time as the registry stores and returns it, printed as Python's `isoformat()`
 * with the client's fraction to the microsecond. A value without an offset is Kyiv wall-clock time, as the reference
 * localises it; one at +02:00 or +03:00 keeps its offset, as the reference keeps it; any other (`Z`) is the same
 * instant in Kyiv time (docs/platform.md §Time and dates). Null when it is no date.
 */
export function kyivIsoOf(value: string): string | null {
  const date = parseIsoDate(value);
  if (!date) return null;
  const match = ISO_DATE_TIME.exec(value.trim())!;
  const micros = (match[7] ?? '').slice(0, 6).padEnd(6, '0');
  const given = match[8] === undefined ? null : parseOffsetMs(match[8]);
  const whole = new Date(date.getTime() - date.getUTCMilliseconds());
  const printed = given !== null && KYIV_OFFSETS.has(given) ? formatWithOffset(whole, given) : formatKyiv(whole);
  return micros === '000000' ? printed : `${printed.slice(0, 19)}.${micros}${printed.slice(19)}`;
}

/** Milliseconds since the epoch of a stored ISO date-time (one the store holds, so it parses). */
export const epochMs = (iso: string): number => parseIsoDate(iso)!.getTime();

/**
 * Parses an ISO 8601 date or date-time as the reference's `parse_date(value, default_timezone=TZ)`:
 * an explicit offset (or Z) is honoured, a naive value is read as Kyiv wall-clock time.
 * Fractions beyond milliseconds are truncated (JS dates hold milliseconds). Null when invalid.
 */
export function parseIsoDate(s: string): Date | null {
  const match = ISO_DATE_TIME.exec(s.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '', zone] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, sec].map(Number);
  const millisecond = Number(frac.slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const wall = wallMsOf(year, month, day, hour, minute, second, millisecond);
  if (zone === undefined) return fromKyivWallMs(wall);
  const offset = parseOffsetMs(zone);
  return offset === null ? null : new Date(wall - offset);
}

function parseOffsetMs(zone: string): number | null {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * HOUR + minutes * MINUTE);
}

function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.abs(offsetMs) / 1000;
  const seconds = total % 60;
  const hhmm = `${pad(Math.floor(total / 3600), 2)}:${pad(Math.floor(total / 60) % 60, 2)}`;
  return `${sign}${hhmm}${seconds === 0 ? '' : `:${pad(seconds, 2)}`}`;
}

function wallMsOf(year: number, month: number, day: number, hour: number, minute: number, second: number, millisecond: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return lastDay.getUTCDate();
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
