/** Feed positions as time (docs/platform.md §Feeds), on the engine the test server runs (SQLite, or MongoDB with MONGODB_URL). */
import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { createLottedTender, procuringEntity } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const feed = async (query = '') => {
  const reply = await server.request('GET', `/api/2.5/tenders${query}`);
  return reply;
};
const ids = (reply: { body: { data: { id: string }[] } }) => reply.body.data.map((e) => e.id);

/** A tender listed in the feed (active.enquiries), committed at the test clock's time. */
async function listedTender(): Promise<string> {
  const tender = await createLottedTender(server);
  const reply = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries', procuringEntity: procuringEntity() } },
  });
  if (reply.status !== 200) throw new Error(`activation: ${reply.status} ${reply.text}`);
  return tender.id;
}

t.test('an empty first page has offset "" and links without an offset, as the reference', async (t) => {
  const reply = await feed();
  t.same(reply.body.data, []);
  t.equal(reply.body.next_page.offset, '');
  t.equal(reply.body.next_page.path, '/api/2.5/tenders');
});

const state: { first?: string; second?: string; firstAt?: number } = {};

t.test('next_page.offset is the UNIX time in seconds of the last listed change, within a second of its dateModified', async (t) => {
  state.first = await listedTender();
  state.firstAt = server.clock.now().getTime() / 1000;
  server.clock.advance(60_000);
  state.second = await listedTender();
  const reply = await feed();
  t.same(ids(reply), [state.first, state.second]);
  const { offset } = reply.body.next_page;
  t.type(offset, 'number');
  const lastModified = Date.parse(reply.body.data[1].dateModified) / 1000;
  t.ok(Math.abs(offset - lastModified) < 1, `offset ${offset}, dateModified ${lastModified}`);
  t.match(reply.body.next_page.path, new RegExp(`offset=${offset}$`));
});

t.test('an ISO 8601 date-time offset lists the changes after that time', async (t) => {
  const between = new Date((state.firstAt! + 30) * 1000).toISOString();
  t.same(ids(await feed(`?offset=${encodeURIComponent(between)}`)), [state.second]);
  t.same(ids(await feed(`?offset=${encodeURIComponent(between)}&descending=1`)), [state.first]);
});

t.test("the reference's offset form lists the changes from that time on", async (t) => {
  const [seconds, fraction] = String(state.firstAt!.toFixed(1)).split('.');
  t.same(ids(await feed(`?offset=${seconds}.${fraction}.1.0c83243cbf195ce42c53e8755e94dcd3`)), [state.first, state.second]);
});

t.test('an offset of the old counter form re-reads from that point rather than miss anything', async (t) => {
  t.same(ids(await feed('?offset=3')), [state.first, state.second]);
});

t.test('an empty page after a date offset echoes the offset as it came', async (t) => {
  const later = '2099-01-01T00:00:00+02:00';
  const reply = await feed(`?offset=${encodeURIComponent(later)}`);
  t.same(reply.body.data, []);
  t.equal(reply.body.next_page.offset, later);
});

t.test('a garbage offset is 404 "Invalid offset provided"', async (t) => {
  const reply = await feed('?offset=yesterday');
  t.equal(reply.status, 404);
  t.same(reply.body.errors, [{ location: 'querystring', name: 'offset', description: 'Invalid offset provided: yesterday' }]);
});

/** What the reference's Python 2 clients send back: `str(float)`, 12 significant digits. */
const python2 = (offset: number | string) => (typeof offset === 'number' ? String(Number(offset.toPrecision(12))) : offset);

/** Follows next_page sending each offset as Python 2 prints it, until an empty page; the ids listed and requests made. */
async function roundedCrawl(query: string, from?: string) {
  const seen = new Set<string>();
  let offset = from;
  for (let requests = 1; requests <= 500; requests++) {
    const reply = await feed(`?limit=3${query}${offset === undefined ? '' : `&offset=${offset}`}`);
    if (!reply.body.data.length) return { seen, requests, offset };
    ids(reply).forEach((id) => seen.add(id));
    if (!reply.body.next_page.path.endsWith(`offset=${reply.body.next_page.offset}`)) throw new Error('links carry the exact form');
    offset = python2(reply.body.next_page.offset);
  }
  throw new Error('endless crawl');
}

t.test('crawls sending offsets rounded to 12 digits list every change, forward and descending, many per tick', async (t) => {
  server.clock.advance(20); // the tick of the changes before closes: till then a rounding client lists it again
  const { offset: start } = await roundedCrawl('');
  const created: string[] = [];
  for (let i = 0; i < 8; i++) {
    created.push(await listedTender());
    server.clock.advance(i % 3 === 0 ? 4 : 0); // several changes to a tick, and ticks after ticks
  }
  server.clock.advance(20); // the last tick closes
  const forward = await roundedCrawl('', start);
  t.same(
    created.filter((id) => !forward.seen.has(id)),
    [],
    `forward: every change (${forward.requests} requests)`,
  );
  const backward = await roundedCrawl('&descending=1');
  t.same(
    created.filter((id) => !backward.seen.has(id)),
    [],
    `descending: every change (${backward.requests} requests)`,
  );
  const later = await listedTender();
  server.clock.advance(20);
  t.ok((await roundedCrawl('', forward.offset)).seen.has(later), 'a change after the end is listed from the last offset');
});
