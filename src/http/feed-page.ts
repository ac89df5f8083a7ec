import { MOST_PER_TICK, fromMicros, isTickBound, tickOf, toMicros } from '../store/feed-position';
import type { FeedQuery } from '../store/port';
import { yieldLoop } from './spliced-json';

/** Reads the store's page for a query: `feed` or `feedListing`. */
export type PageRead<R> = (query: FeedQuery) => Promise<R[]>;

/** A page whose entries end on a tick's bound, and the offset of the page after it. */
export interface TickedPage<R> {
  entries: R[];
  /** Where the next page starts: a tick's bound, or the last listed position while its tick may still take commits. */
  next?: number;
}

/**
 * The store's exclusive bound for a client's offset: a tick's bound is taken with the position on it, if any (an
 * earlier version could give one), so an offset rounded to a bound repeats at most that position.
 */
export function storeOffset(offset: number, descending: boolean): number {
  if (!isTickBound(offset)) return offset;
  return fromMicros(toMicros(offset) + (descending ? 1 : -1));
}

/**
 * A feed page that ends on a tick's bound (docs/platform.md §Feeds). A page that fills `limit` takes the rest of its
 * last tick, so a full page holds `limit` entries or a few more, never fewer: at most `limit` plus a tick's other
 * positions (99; 9,999 of an earlier version's). A page short of `limit` has reached the newest position the store
 * lists. Ascending, either ends on the bound of its last tick once the store says that tick can take no more commits
 * (`sealedBelow`), else on its last position.
 */
export async function tickedPage<R extends { seq: number }>(
  query: FeedQuery,
  read: PageRead<R>,
  sealedBelow: (bound: number) => Promise<boolean>,
): Promise<TickedPage<R>> {
  const entries = await read(query);
  if (!entries.length) return { entries };
  const { descending } = query;
  const last = entries[entries.length - 1];
  const tick = tickOf(last.seq, descending);
  const full = entries.length >= query.limit;
  // The rest of the last tick: below a listed position every commit is visible, above it up to a sealed bound.
  const rest = () => read({ ...query, offset: last.seq, until: tick.end, limit: MOST_PER_TICK });
  if (descending) return { entries: full ? [...entries, ...(await rest())] : entries, next: tick.end };
  const sealed = await sealedBelow(tick.end);
  if (!sealed && !full) return { entries, next: last.seq };
  const more = await rest();
  return { entries: [...entries, ...more], next: sealed ? tick.end : (more.at(-1) ?? last).seq };
}

/**
 * `read` in reads of `size()` entries at most, the event loop given back between them (docs/platform.md §Limits):
 * the rest of a tick may be 99 entries each near the body limit, and a SQLite read holds the loop until it ends.
 * Each read starts from the last listed position, as the parts of a page do.
 */
function inChunks<R extends { seq: number }>(read: PageRead<R>, size: () => number): PageRead<R> {
  return async (query) => {
    const entries: R[] = [];
    let { offset } = query;
    for (;;) {
      const limit = Math.min(size(), query.limit - entries.length);
      const chunk = await read({ ...query, offset, limit });
      entries.push(...chunk);
      if (chunk.length < limit || entries.length >= query.limit) return entries;
      offset = chunk[chunk.length - 1].seq;
      await yieldLoop();
    }
  };
}

/** What the parts of a page tell as they are read. */
export interface PageEnd {
  /** Where the next page starts, once the parts are read. */
  next?: number;
  /** Whether the part just given (or, on an empty page, none) is the page's last: no read follows it. */
  complete?: boolean;
}

/**
 * A page read from the store a part at a time, for its body to be sent as its client takes it
 * (docs/platform.md §Limits): each part a ticked page of `size()` entries at most, the first from the query's offset and each next
 * from the last listed position, as a crawler following `next_page` would read them (below a listed position every
 * commit is visible, so nothing is skipped between parts), until `limit` entries are listed or a part comes back
 * short. The parts make a ticked page of `limit`: full, `limit` entries or its last tick's few more, the rest of a
 * tick read `size()` entries at a time too. `end` says where the next page starts and whether a part is the last.
 */
export async function* pageParts<R extends { seq: number }>(
  query: FeedQuery,
  read: PageRead<R>,
  sealedBelow: (bound: number) => Promise<boolean>,
  size: () => number,
  end: PageEnd,
): AsyncGenerator<R[]> {
  let { offset } = query;
  let left = query.limit;
  const chunked = inChunks(read, size);
  for (;;) {
    const limit = Math.min(left, size());
    const part = await tickedPage({ ...query, offset, limit }, chunked, sealedBelow);
    const last = part.entries.at(-1);
    if (!last) {
      end.complete = true;
      return;
    }
    end.next = part.next;
    left -= part.entries.length;
    end.complete = part.entries.length < limit || left <= 0;
    yield part.entries;
    if (end.complete) return;
    offset = last.seq;
  }
}

/**
 * Where the page before this one starts, read the other way: behind `first`, its first entry — the bound behind
 * `first`'s tick when the page holds that tick whole, else `first` itself; on an empty page, the bound on the far side
 * of its offset, which lists the entry at the offset again (docs/platform.md §Feeds).
 */
export function previousOffset(first: number | undefined, query: FeedQuery): number | undefined {
  if (first === undefined) return query.offset === undefined ? undefined : tickOf(query.offset, !query.descending).start;
  const { start } = tickOf(first, query.descending);
  const whole = query.descending ? query.offset !== undefined && query.offset > start : query.offset === undefined || query.offset < start;
  return whole ? start : first;
}
