import t from 'tap';
import fc from 'fast-check';
import { FeedWindows, type PositionRange } from '../../../src/store/mongo/feed-windows';
import type { FeedQuery } from '../../../src/store/port';

/** What one open-range query returns: the first `limit` positions after (or before) the offset, below the watermark. */
function expected(positions: number[], query: FeedQuery, below: number): number[] {
  const listed = positions.filter((p) => p < below);
  if (query.descending)
    return listed
      .filter((p) => query.offset === undefined || p < query.offset)
      .reverse()
      .slice(0, query.limit);
  return listed.filter((p) => query.offset === undefined || p > query.offset).slice(0, query.limit);
}

/** The store's side of a window: the records in the range, in the page's order, at most `limit`. */
const reader = (positions: number[], descending: boolean, log: PositionRange[]) => async (range: PositionRange, limit: number) => {
  log.push(range);
  const inRange = positions.filter(
    (p) =>
      (range.$gt === undefined || p > range.$gt) &&
      (range.$gte === undefined || p >= range.$gte) &&
      (range.$lt === undefined || p < range.$lt),
  );
  return (descending ? inRange.reverse() : inRange).slice(0, limit).map((seq) => ({ seq }));
};

t.test('a page read in windows is the page one open range gives, whatever the density and the offset', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.double({ min: 1.7e9, max: 1.8e9, noNaN: true }), { maxLength: 300 }),
      fc.integer({ min: 1, max: 120 }),
      fc.boolean(),
      fc.option(fc.double({ min: 1.69e9, max: 1.81e9, noNaN: true }), { nil: undefined }),
      fc.double({ min: 1.7e9, max: 1.81e9, noNaN: true }),
      async (unsorted, limit, descending, offset, below) => {
        const positions = [...unsorted].sort((a, b) => a - b);
        const windows = new FeedWindows();
        // Two pages in a row on one node: the second uses what the first taught it.
        for (let page = 0; page < 2; page++) {
          const query: FeedQuery = { kind: 'tenders', offset, descending, limit, mode: 'live' };
          const got = await windows.page(query, below, reader(positions, descending, []));
          t.strictSame(
            got.map((r) => r.seq),
            expected(positions, query, below),
          );
        }
      },
    ),
    { seed: 20261125, numRuns: 400 },
  );
});

t.test('once it has learnt the density, a page of a dense feed takes one query over about a page of positions', async (t) => {
  const positions = Array.from({ length: 5000 }, (_, i) => 1.79e9 + i * 0.5);
  const windows = new FeedWindows();
  const query = (offset: number): FeedQuery => ({ kind: 'tenders', offset, descending: false, limit: 100, mode: 'live' });
  await windows.page(query(1.79e9), 1.8e9, reader(positions, false, []));
  const log: PositionRange[] = [];
  const page = await windows.page(query(1.79e9 + 1000), 1.8e9, reader(positions, false, log));
  t.equal(page.length, 100);
  t.equal(log.length, 1);
  t.ok(log[0].$lt! - log[0].$gt! <= 100 * 0.5 * 2, `window of ${log[0].$lt! - log[0].$gt!} s`);
});

t.test('the first ascending page of a feed reads the open range once; later first pages start where it started', async (t) => {
  const positions = Array.from({ length: 50 }, (_, i) => 1.79e9 + i);
  const windows = new FeedWindows();
  const first: FeedQuery = { kind: 'tenders', descending: false, limit: 10, mode: 'live' };
  const log: PositionRange[] = [];
  await windows.page(first, 1.8e9, reader(positions, false, log));
  t.strictSame(log, [{ $lt: 1.8e9 }]);
  log.length = 0;
  const again = await windows.page(first, 1.8e9, reader(positions, false, log));
  t.strictSame(
    again.map((r) => r.seq),
    positions.slice(0, 10),
  );
  t.equal(log[0].$gte, 1.79e9, 'from the first position listed');
  log.length = 0;
  await windows.page({ ...first, frameworkID: 'f'.repeat(32) }, 1.8e9, reader(positions, false, log));
  t.strictSame(log, [{ $lt: 1.8e9 }], "a framework's feed: its start is not kept");
});
