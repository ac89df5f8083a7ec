/**
 * Full feed pages (docs/platform.md §Feeds: Ticks): a page that fills `limit` holds `limit` entries or a few more,
 * never fewer, in every feed and both directions, with many entries per tick and many ticks per page; following
 * `next_page` lists each entry once. Engine as the test server runs (SQLite, or MongoDB with MONGODB_URL).
 */
import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { POSITIONS_PER_TICK, TICK_MICROS, fromMicros } from '../../../src/store/feed-position';
import type { Kind, StoredRecord } from '../../../src/store/port';

// Nine feeds, two directions, four limits: a few hundred pages, a minute on the MongoDB test server.
t.setTimeout(240_000);

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const FRAMEWORK = 'f'.repeat(32);
/** Entries per tick, tick after tick: 1 to 9, and a run of single-entry ticks. */
const PER_TICK = [3, 9, 1, 1, 1, 5, 7, 2, 8, 1, 6, 9, 1, 4];
/** An hour before the server's clock and the wall clock, on a tick's bound: sealed on both engines. */
const startMicros = () => Math.floor((Math.min(server.clock.now().getTime(), Date.now()) / 1000 - 3600) * 100) * TICK_MICROS;

/** Records of `kind` at positions many to a tick, ids in position order. */
function records(kind: Kind, tag: string): StoredRecord[] {
  const start = startMicros();
  const out: StoredRecord[] = [];
  PER_TICK.forEach((count, tick) => {
    for (let i = 0; i < count; i++) {
      const seq = fromMicros(start + tick * TICK_MICROS + 1 + i * Math.floor(POSITIONS_PER_TICK / count));
      const id = `${tag}${String(out.length).padStart(4, '0')}`.padStart(32, '0');
      const data = { id, dateModified: new Date(seq * 1000).toISOString(), status: 'active', frameworkID: FRAMEWORK };
      out.push({ kind, id, rev: 1, seq, doc: { data }, index: { isPublic: true, isTest: false, nextCheck: null }, revisions: [] });
    }
  });
  return out;
}

const FEEDS: [string, Kind][] = [
  ['tenders', 'tenders'],
  ['plans', 'plans'],
  ['contracts', 'contracts'],
  ['frameworks', 'frameworks'],
  ['submissions', 'submissions'],
  ['qualifications', 'qualifications'],
  ['agreements', 'agreements'],
  [`frameworks/${FRAMEWORK}/submissions`, 'submissions'],
  [`frameworks/${FRAMEWORK}/qualifications`, 'qualifications'],
];
const expected = new Map<Kind, string[]>();

t.before(async () => {
  for (const [, kind] of FEEDS) {
    if (expected.has(kind)) continue;
    const put = records(kind, String(expected.size + 1));
    await server.store.transfer.importRecords(put);
    expected.set(
      kind,
      put.map((r) => r.id),
    );
  }
});

/** Follows next_page with the offset sent back as `send` prints it; each page's ids. */
async function crawl(path: string, limit: number, descending: boolean, send: (offset: number) => string): Promise<string[][]> {
  const pages: string[][] = [];
  let offset: string | undefined;
  for (let guard = 0; guard < 500; guard++) {
    const query = `limit=${limit}${descending ? '&descending=1' : ''}${offset === undefined ? '' : `&offset=${offset}`}`;
    const reply = await server.request('GET', `/api/2.5/${path}?${query}`);
    if (reply.status !== 200) throw new Error(`${path}?${query}: ${reply.status} ${reply.text}`);
    const ids = (reply.body.data as { id: string }[]).map((entry) => entry.id);
    if (!ids.length) return pages;
    pages.push(ids);
    offset = send(reply.body.next_page.offset as number);
  }
  throw new Error('endless crawl');
}

/** What the reference's Python 2 clients send back: `str(float)`, 12 significant digits. */
const python2 = (offset: number) => String(Number(offset.toPrecision(12)));

for (const [path, kind] of FEEDS) {
  t.test(`/${path}: full pages hold limit entries or more, each entry listed once`, async (t) => {
    const all = expected.get(kind)!;
    for (const descending of [false, true]) {
      for (const limit of [1, 4, 10, 25]) {
        const pages = await crawl(path, limit, descending, String);
        const listed = pages.flat();
        t.same(listed, descending ? [...all].reverse() : all, `limit ${limit}${descending ? ' descending' : ''}: each once, in order`);
        const short = pages.slice(0, -1).filter((page) => page.length < limit);
        t.same(short, [], `limit ${limit}: no page but the last is short of it (${pages.map((p) => p.length).join(' ')})`);
        t.ok(Math.max(...pages.map((page) => page.length)) < limit + Math.max(...PER_TICK), 'a full page holds at most its last tick more');
      }
    }
    const rounded = (await crawl(path, 4, false, python2)).flat();
    t.same(
      all.filter((id) => !rounded.includes(id)),
      [],
      'offsets rounded to 12 digits miss nothing',
    );
  });
}
