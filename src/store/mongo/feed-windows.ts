import type { FeedQuery } from '../port';

/** A range of feed positions for one query: above or from a position, below another. */
export type PositionRange = { $gt?: number; $gte?: number; $lt?: number };

/** The range with the query's far bound (`until`) added. */
const bounded = (range: PositionRange, query: FeedQuery): PositionRange =>
  query.until === undefined
    ? range
    : query.descending
      ? { ...range, $gt: query.until }
      : { ...range, $lt: Math.min(range.$lt ?? Infinity, query.until) };

const INITIAL_SPAN_SECONDS = 3600;
/** Each window past the first is this many times wider. */
const GROWTH = 8;
/** Windows before the rest of the range is read at once. */
const MAX_WINDOWS = 4;
/** Positions are microseconds apart at the least (docs/platform.md §Feeds). */
const MIN_SPAN_SECONDS = 1e-6;
/** How much wider than the last page's positions a window is taken, so most pages take one query. */
const MARGIN = 1.5;

/**
 * Feed pages on MongoDB read as a few windows of positions rather than one open range: a server that fetches every
 * document of a range before it sorts and limits (SecantusDB, the test server) then reads about a page, not the rest
 * of the history; mongod, which walks the index, is unaffected. Each node learns, per feed, how many seconds of
 * positions a page spans and where the feed starts (docs/mongodb.md §Feed pages on MongoDB).
 */
export class FeedWindows {
  private readonly spans = new Map<string, number>();
  /**
   * Where each feed (not a framework's) starts: the first position its first page listed. No commit can land below a
   * listed position later (docs/mongodb.md §Feed ordering on MongoDB), so a first page needs no open range.
   */
  private readonly starts = new Map<string, number>();

  /** The page of `query` below the watermark `below`, read through `read` (a range, the most records wanted). */
  async page<R extends { seq: number }>(query: FeedQuery, below: number, readRange: Read<R>): Promise<R[]> {
    const read: Read<R> = (range, limit) => readRange(bounded(range, query), limit);
    if (!query.descending && query.until !== undefined) below = Math.min(below, query.until);
    const key = `${query.kind}/${query.mode}/${query.frameworkID === undefined ? '' : 'framework'}`;
    if (query.offset !== undefined || query.descending) return this.windows(key, query, below, read, { $gt: query.offset });
    const start = query.frameworkID === undefined ? this.starts.get(key) : undefined;
    if (start !== undefined) return this.windows(key, query, below, read, { $gte: start });
    const first = await read({ $lt: below }, query.limit);
    if (first.length && query.frameworkID === undefined) this.starts.set(key, first[0].seq);
    return first;
  }

  /** An ascending page from `after`, or a descending one before the offset, window by window. */
  private async windows<R extends { seq: number }>(key: string, query: FeedQuery, below: number, read: Read<R>, after: PositionRange) {
    let span = this.spans.get(key) ?? INITIAL_SPAN_SECONDS;
    const records: R[] = [];
    if (query.descending) {
      let upper = Math.min(query.offset ?? below, below);
      for (let window = 1; records.length < query.limit; window++, span *= GROWTH) {
        const last = window > MAX_WINDOWS || (query.until !== undefined && upper - span <= query.until);
        records.push(...(await read(last ? { $lt: upper } : { $gte: upper - span, $lt: upper }, query.limit - records.length)));
        if (last) break;
        upper -= span;
      }
    } else {
      let lower = after;
      for (let window = 1; records.length < query.limit; window++, span *= GROWTH) {
        const upper = window > MAX_WINDOWS ? below : Math.min((lower.$gt ?? lower.$gte)! + span, below);
        records.push(...(await read({ ...lower, $lt: upper }, query.limit - records.length)));
        if (upper >= below) break;
        lower = { $gte: upper };
      }
    }
    // A page bounded on both sides (the rest of a tick) says nothing of how far a page reaches.
    if (records.length >= 2 && query.until === undefined) {
      const perRecord = Math.abs(records[records.length - 1].seq - records[0].seq) / (records.length - 1);
      this.spans.set(key, Math.max(perRecord * query.limit * MARGIN, MIN_SPAN_SECONDS));
    }
    return records;
  }
}

/** The store's side: the records of a range, in the page's order, at most `limit`. */
type Read<R> = (range: PositionRange, limit: number) => Promise<R[]>;
