import { fromMicros, toMicros } from '../store/feed-position';
import { parseIsoDate } from '../time/kyiv';

/** A position: float UNIX seconds, or the commit counter that earlier versions gave out. */
const POSITION = /^\d+(\.\d+)?$/;
/** The reference's `"<seconds>.<fraction>.<count>.<md5 of ids>"` (docs/platform.md §Feeds). */
const REFERENCE = /^(\d+\.\d+)\.\d+\.[0-9a-f]{32}$/;
/** A query string's `+` read as a space, before a UTC offset. */
const ZONE_AS_SPACE = / (\d{2}(?::?\d{2})?)$/;

/**
 * The feed position after which (ascending; before which, descending) a page starts, from a client's `offset`, or
 * null when it is not one (docs/platform.md §Feeds). A position, or the counter of an earlier version, is taken as
 * it is; an ISO 8601 date-time means "changes after that time"; the reference's form means "from that time on"
 * (descending: "up to that time"), its items at exactly that time included again (at least once rather than never).
 */
export function parseFeedOffset(raw: string, descending: boolean): number | null {
  if (POSITION.test(raw)) {
    const position = Number(raw);
    return Number.isFinite(position) ? position : null;
  }
  const reference = REFERENCE.exec(raw);
  if (reference) return fromMicros(toMicros(Number(reference[1])) + (descending ? 1 : -1));
  const date = parseIsoDate(raw.replace(ZONE_AS_SPACE, '+$1'));
  return date && !Number.isNaN(date.getTime()) ? date.getTime() / 1000 : null;
}

/**
 * How a page's link names a position: as a JSON number, as the spec shows; a client's own `offset` that is not a
 * position (a date, the reference's form) is echoed as it came when the page lists nothing to take one from.
 */
export const offsetEcho = (raw: string): number | string => (POSITION.test(raw) ? Number(raw) : raw);
