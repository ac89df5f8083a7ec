import t from 'tap';
import { pageParts, previousOffset, storeOffset, tickedPage } from '../../../src/http/feed-page';
import { parseFeedOffset } from '../../../src/http/feed-offset';
import { POSITIONS_PER_TICK, PositionClock, fromMicros, positionsAfter, tickOf, toMicros } from '../../../src/store/feed-position';
import type { FeedQuery } from '../../../src/store/port';

/** What the reference's Python 2 clients send back: `str(float)`, 12 significant digits. */
const python2 = (offset: number) => String(Number(offset.toPrecision(12)));
/** What a client that parses the offset as a double and prints its shortest form sends back. */
const double = (offset: number) => String(Number(String(offset)));

const START_MS = Date.parse('2026-11-27T01:00:00.007Z');

/** An SQLite-like store in memory: positions from one counter, sealed once the wall clock passes a bound. */
class MemoryFeed {
  positions: number[] = [];
  last = 0;
  nowMs = START_MS;

  commit(count: number) {
    const taken = positionsAfter(this.last, this.nowMs, count);
    this.last = taken[taken.length - 1];
    this.positions.push(...taken);
  }

  read = async (q: FeedQuery) => {
    const listed = this.positions.filter(
      (p) =>
        (q.offset === undefined || (q.descending ? p < q.offset : p > q.offset)) &&
        (q.until === undefined || (q.descending ? p > q.until : p < q.until)),
    );
    return (q.descending ? listed.reverse() : listed).slice(0, q.limit).map((seq) => ({ seq }));
  };

  sealedBelow = async (bound: number) => this.wallSealed(bound);

  protected wallSealed(bound: number) {
    if (toMicros(this.last) + 1 >= toMicros(bound)) return true;
    if (this.nowMs * 1000 < toMicros(bound)) return false;
    this.last = fromMicros(toMicros(bound) - 1);
    return true;
  }

  /** One request of a crawler that sends `offset` back as `send` prints it. */
  async page(offset: string | undefined, descending: boolean, limit: number) {
    const parsed = offset === undefined ? undefined : storeOffset(parseFeedOffset(offset, descending)!, descending);
    const query: FeedQuery = { kind: 'tenders', offset: parsed, descending, limit, mode: 'live' };
    return tickedPage(query, this.read, this.sealedBelow);
  }
}

t.test('new positions sit in the first half of their tick, never on a bound, and 12 digits round them down to it', async (t) => {
  const feed = new MemoryFeed();
  for (let ms = 0; ms < 40; ms++, feed.nowMs += 0.25) feed.commit(300);
  let previous = 0;
  for (const position of feed.positions) {
    const within = toMicros(position) % 10_000;
    if (within < 1 || within > POSITIONS_PER_TICK) t.fail(`position ${position} at ${within} µs of its tick`);
    if (position <= previous) t.fail('positions rise');
    if (Number(python2(position)) !== tickOf(position, false).start) t.fail(`${position} rounds to ${python2(position)}`);
    if (Number(double(position)) !== position) t.fail(`${position} does not survive a double round trip`);
    previous = position;
  }
  t.pass(`${feed.positions.length} positions checked`);
});

t.test('a tick bound survives 12-digit rounding and a double round trip, and is taken with the position on it', async (t) => {
  const bound = tickOf(fromMicros(toMicros(START_MS / 1000) + 1234), false).end;
  t.equal(python2(bound), String(bound));
  t.equal(double(bound), String(bound));
  t.equal(toMicros(storeOffset(bound, false)), toMicros(bound) - 1, 'ascending: from the bound on');
  t.equal(toMicros(storeOffset(bound, true)), toMicros(bound) + 1, 'descending: from the bound down');
  t.equal(storeOffset(bound + 0.000123, false), bound + 0.000123, 'an exact position is taken as it is');
});

t.test('a clock that stepped back keeps the floor it promised, in the first half of a tick', async (t) => {
  let wall = START_MS + 8.5; // in the second half of a tick
  const clock = new PositionClock(() => wall);
  const floor = clock.floor();
  wall -= 1000;
  const [next] = clock.next();
  t.ok(next >= floor);
  t.ok(toMicros(next) % 10_000 <= POSITIONS_PER_TICK);
});

for (const [name, send] of [
  ['12 significant digits (Python 2)', python2],
  ['a double round trip', double],
] as const) {
  for (const descending of [false, true]) {
    t.test(
      `${descending ? 'descending' : 'forward'} crawls sending offsets as ${name} list every change, many per millisecond`,
      async (t) => {
        const feed = new MemoryFeed();
        const seen = new Set<number>();
        let offset: string | undefined;
        let requests = 0;
        let largest = 0;
        const limit = 100;
        // Writers commit 5,000 changes in bursts of up to 400 per millisecond while the crawler pages.
        for (let burst = 0; burst < 40; burst++) {
          feed.commit(1 + ((burst * 97) % 400));
          feed.nowMs += 0.3;
          if (descending) continue;
          const page = await feed.page(offset, false, limit);
          requests++;
          largest = Math.max(largest, page.entries.length);
          page.entries.forEach((e) => seen.add(e.seq));
          if (page.next !== undefined) offset = send(page.next);
        }
        feed.nowMs += 20; // writers stop
        const expected = [...feed.positions];
        // Writers outran 100 positions a tick, so positions ran ahead of the wall clock: a rounding client lists the
        // newest tick again until the clock reaches it. Each request takes a millisecond.
        for (let guard = 0; ; guard++, feed.nowMs += 1) {
          if (guard > 2000) return t.fail('endless crawl');
          const page = await feed.page(offset, descending, limit);
          requests++;
          largest = Math.max(largest, page.entries.length);
          if (!page.entries.length) break;
          page.entries.forEach((e) => seen.add(e.seq));
          offset = send(page.next!);
        }
        t.same(
          expected.filter((p) => !seen.has(p)),
          [],
          `every change listed (${expected.length} changes, ${requests} requests)`,
        );
        t.ok(largest < limit + POSITIONS_PER_TICK, `largest page ${largest}`);
      },
    );
  }
}

t.test('an unsealed last tick ends the page on its last position; sealed, on its bound', async (t) => {
  const feed = new MemoryFeed();
  feed.commit(3);
  const open = await feed.page(undefined, false, 100);
  t.equal(open.next, feed.positions[2]);
  feed.nowMs += 10;
  const sealed = await feed.page(undefined, false, 100);
  t.equal(sealed.next, tickOf(feed.positions[2], false).end);
  feed.commit(1);
  t.ok(feed.positions[3] > sealed.next!, 'a later commit lands above the bound');
});

t.test('a full page of several ticks takes its last tick whole, as a full page of one tick does', async (t) => {
  const feed = new MemoryFeed();
  feed.commit(3);
  feed.nowMs += 10;
  feed.commit(5);
  feed.nowMs += 10;
  const several = await feed.page(undefined, false, 5);
  t.same(
    several.entries.map((e) => e.seq),
    feed.positions,
    'limit 5: the first tick and the whole of the second',
  );
  t.equal(several.next, tickOf(feed.positions[7], false).end);
  const one = await feed.page(undefined, false, 2);
  t.same(
    one.entries.map((e) => e.seq),
    feed.positions.slice(0, 3),
  );
  t.equal(one.next, tickOf(feed.positions[2], false).end);
  const back = await feed.page(undefined, true, 6);
  t.same(
    back.entries.map((e) => e.seq),
    [...feed.positions].reverse(),
  );
  t.equal(back.next, tickOf(feed.positions[0], true).end);
});

t.test('a page read in parts reads at most a part of entries at once, the rest of a tick included', async (t) => {
  const feed = new MemoryFeed();
  feed.commit(2);
  feed.nowMs += 10;
  feed.commit(90);
  feed.nowMs += 10;
  for (const descending of [false, true]) {
    const limits: number[] = [];
    const read = (q: FeedQuery) => {
      limits.push(q.limit);
      return feed.read(q);
    };
    const end: { next?: number } = {};
    const query: FeedQuery = { kind: 'tenders', descending, limit: 5, mode: 'live' };
    const listed: number[] = [];
    for await (const part of pageParts(query, read, feed.sealedBelow, () => 3, end)) listed.push(...part.map((e) => e.seq));
    const whole = await feed.page(undefined, descending, 5);
    t.same(
      listed,
      whole.entries.map((e) => e.seq),
      `${descending ? 'descending' : 'ascending'}: the page read whole`,
    );
    t.equal(end.next, whole.next);
    t.ok(listed.length > 10, `${listed.length} entries: limit 5 and the rest of a tick of many`);
    t.ok(Math.max(...limits) <= 3, `${limits.length} reads, none of more than 3 entries`);
  }
});

t.test('an unsealed last tick of a full page: the page ends on its last position, and what lands below the bound follows', async (t) => {
  const feed = new MemoryFeed();
  feed.commit(3);
  feed.nowMs += 10;
  feed.commit(2);
  const page = await feed.page(undefined, false, 4);
  t.same(
    page.entries.map((e) => e.seq),
    feed.positions,
  );
  t.equal(page.next, feed.positions[4], 'the last listed position, exactly');
  feed.commit(2);
  const next = await feed.page(String(page.next), false, 4);
  t.same(
    next.entries.map((e) => e.seq),
    feed.positions.slice(5),
  );
});

/**
 * A store whose commits become visible out of their positions' order, as on MongoDB: a position taken by a commit
 * not yet visible holds back every position above it (the watermark), and its tick is not sealed until it is.
 */
class PendingFeed extends MemoryFeed {
  private batches: number[][] = [];

  /** A commit of `count` positions that is not visible yet. */
  take(count: number) {
    this.commit(count);
    this.batches.push(this.positions.slice(-count));
  }

  /** Makes the newest or the oldest commit in flight visible. */
  land(newest: boolean) {
    if (newest) this.batches.pop();
    else this.batches.shift();
  }

  landAll() {
    this.batches = [];
  }

  private watermark = () => Math.min(Infinity, ...this.batches.flat());

  read = async (q: FeedQuery) => {
    const visible = this.watermark();
    const listed = this.positions.filter(
      (p) =>
        p < visible &&
        (q.offset === undefined || (q.descending ? p < q.offset : p > q.offset)) &&
        (q.until === undefined || (q.descending ? p > q.until : p < q.until)),
    );
    return (q.descending ? listed.reverse() : listed).slice(0, q.limit).map((seq) => ({ seq }));
  };

  sealedBelow = async (bound: number) => this.watermark() > bound && this.wallSealed(bound);
}

for (const limit of [1, 7, 30, 100, 250]) {
  for (const [name, send] of [
    ['exactly', (offset: number) => String(offset)],
    ['as 12 significant digits', python2],
  ] as const) {
    t.test(`limit ${limit}, offsets sent ${name}: a full page holds limit entries or more, commits landing out of order`, async (t) => {
      const feed = new PendingFeed();
      const seen: number[] = [];
      let offset: string | undefined;
      const short: number[] = [];
      let largest = 0;
      const crawl = async (): Promise<number> => {
        const page = await feed.page(offset, false, limit);
        largest = Math.max(largest, page.entries.length);
        seen.push(...page.entries.map((e) => e.seq));
        if (page.next !== undefined) offset = send(page.next);
        const last = page.entries.at(-1)?.seq;
        if (last !== undefined && page.entries.length < limit) {
          const more = await feed.read({ kind: 'tenders', offset: last, descending: false, limit: 1, mode: 'live' });
          if (more.length) short.push(page.entries.length);
        }
        return page.entries.length;
      };
      // Commits of 1 to 37 positions, a few in flight, landing newest first every third round.
      for (let round = 0; round < 60; round++) {
        feed.take(1 + ((round * 13) % 37));
        if (round % 2) feed.nowMs += 4;
        if (round % 4 !== 1) feed.land(round % 3 === 0);
        for (let reads = 0; reads < 3 && (await crawl()) >= limit; reads++);
      }
      feed.landAll();
      feed.nowMs += 100;
      for (let guard = 0; (await crawl()) > 0; guard++) if (guard > 5000) return t.fail('endless crawl');
      t.same(
        feed.positions.filter((p) => !seen.includes(p)),
        [],
        `none missed (${feed.positions.length} positions)`,
      );
      if (send !== python2) t.equal(seen.length, new Set(seen).size, 'none listed twice');
      t.same(short, [], 'a page short of limit had reached the newest listed position');
      t.ok(largest < limit + POSITIONS_PER_TICK, `largest page ${largest}`);
    });
  }
}

for (const limit of [1, 7, 100]) {
  t.test(`limit ${limit} descending: full pages hold at least limit entries, each once`, async (t) => {
    const feed = new MemoryFeed();
    for (let round = 0; round < 40; round++, feed.nowMs += 3) feed.commit(1 + ((round * 13) % 37));
    feed.nowMs += 100;
    const seen: number[] = [];
    let offset: string | undefined;
    for (let guard = 0; ; guard++) {
      if (guard > 5000) return t.fail('endless crawl');
      const page = await feed.page(offset, true, limit);
      if (!page.entries.length) break;
      const rest = await feed.read({ kind: 'tenders', offset: page.next, descending: true, limit: 1, mode: 'live' });
      if (rest.length) t.ok(page.entries.length >= limit, `a page followed by more holds ${page.entries.length} ≥ ${limit}`);
      t.ok(page.entries.length < limit + POSITIONS_PER_TICK);
      seen.push(...page.entries.map((e) => e.seq));
      offset = String(page.next);
    }
    t.same(seen, [...feed.positions].reverse(), 'every position once, newest first');
  });
}

t.test('prev_page starts behind the first entry: its tick bound when the page holds the tick whole', async (t) => {
  const first = fromMicros(toMicros(START_MS / 1000) + 10_000 * 7 + 42);
  const { start: lower } = tickOf(first, false);
  const query = (offset: number | undefined, descending: boolean): FeedQuery => ({
    kind: 'tenders',
    offset,
    descending,
    limit: 10,
    mode: 'live',
  });
  t.equal(previousOffset(first, query(storeOffset(lower, false), false)), lower);
  t.equal(previousOffset(first, query(first - 0.000001, false)), first, 'from a position inside the tick: the entry itself');
  t.equal(previousOffset(first, query(undefined, true)), first, 'the newest tick may still grow');
  t.equal(previousOffset(undefined, query(storeOffset(lower, false), false)), lower, 'an empty page: the bound itself');
  t.equal(previousOffset(undefined, query(undefined, false)), undefined);
});
