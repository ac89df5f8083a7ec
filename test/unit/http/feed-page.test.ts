import t from 'tap';
import { previousOffset, storeOffset, tickedPage } from '../../../src/http/feed-page';
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

  sealedBelow = async (bound: number) => {
    if (toMicros(this.last) + 1 >= toMicros(bound)) return true;
    if (this.nowMs * 1000 < toMicros(bound)) return false;
    this.last = fromMicros(toMicros(bound) - 1);
    return true;
  };

  /** One request of a crawler that sends `offset` back as `send` prints it. */
  async page(offset: string | undefined, descending: boolean, limit: number) {
    const parsed = offset === undefined ? undefined : storeOffset(parseFeedOffset(offset)!, descending);
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
        t.ok(largest <= Math.max(limit, POSITIONS_PER_TICK), `largest page ${largest}`);
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

t.test('a full page of several ticks gives back its last tick; a full page of one tick takes it whole', async (t) => {
  const feed = new MemoryFeed();
  feed.commit(3);
  feed.nowMs += 10;
  feed.commit(5);
  feed.nowMs += 10;
  const several = await feed.page(undefined, false, 5);
  t.same(
    several.entries.map((e) => e.seq),
    feed.positions.slice(0, 3),
  );
  t.equal(several.next, tickOf(feed.positions[3], false).start);
  const one = await feed.page(String(several.next), false, 2);
  t.same(
    one.entries.map((e) => e.seq),
    feed.positions.slice(3),
  );
  t.equal(one.next, tickOf(feed.positions[7], false).end);
  const back = await feed.page(undefined, true, 2);
  t.same(
    back.entries.map((e) => e.seq),
    feed.positions.slice(3).reverse(),
  );
  t.equal(back.next, tickOf(feed.positions[3], true).end);
});

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
