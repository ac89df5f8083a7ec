/** The reference's offset form on every feed, both directions, and as a live feed's Last-Event-ID (docs/platform.md §Feeds). */
import t from 'tap';
import { openLiveFeed } from '../../../scripts/live-feed-client';
import { aPlan, createPlan } from '../../fixtures/plans';
import { err, errorReply, startTestServer, type TestServer } from '../../fixtures/server';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const API = '/api/2.5';
const HASH = '0c83243cbf195ce42c53e8755e94dcd3';
const FEEDS = ['tenders', 'plans', 'contracts', 'frameworks', 'agreements', 'submissions', 'qualifications'];

/** The reference's `compose_offset` of a position: its seconds and fraction, a count and an md5. */
const referenceForm = (position: number, count = 1) => `${String(position).includes('.') ? position : `${position}.0`}.${count}.${HASH}`;

t.test('every feed takes the reference form, ascending and descending; a broken one is 404', async (t) => {
  const offset = referenceForm(1798754400);
  for (const feed of FEEDS) {
    for (const descending of ['', '&descending=1']) {
      const res = await server.request('GET', `${API}/${feed}?offset=${offset}${descending}`);
      t.equal(res.status, 200, `${feed}${descending}: ${res.text}`);
      t.same(res.body.data, [], `${feed}${descending}: nothing after it`);
      t.equal(res.body.next_page.offset, offset, `${feed}${descending}: an empty page echoes it as it came`);
    }
    const broken = `1798754400.0.1.${'x'.repeat(32)}`;
    t.match(
      await server.request('GET', `${API}/${feed}?offset=${broken}`),
      errorReply(404, 'querystring', 'offset', `Invalid offset provided: ${broken}`),
      `${feed}: a broken form`,
    );
  }
});

t.test("from the reference's form: the changes from that time on, or up to it descending, its own listed again", async (t) => {
  const plans = [];
  for (const name of ['a', 'b', 'c']) {
    plans.push((await createPlan(server, aPlan({ rationale: { description: name } }))).id);
    server.clock.advance(60_000);
  }
  // Each plan's own position, as a live feed's event ids name them (a page's next_page.offset is a tick's bound).
  const all = await openLiveFeed(`${server.url}${API}/plans`);
  t.teardown(() => all.close());
  const positions: number[] = [];
  while (positions.length < plans.length) {
    const event = await all.next(5000);
    if (!event) throw new Error(`${positions.length} of ${plans.length} events came`);
    if (event.data !== null) positions.push(Number(event.id));
  }
  const atSecond = referenceForm(positions[1]);
  const ids = async (query: string) => (await server.request('GET', `${API}/plans?${query}`)).body.data.map((e: any) => e.id);
  t.same(await ids(`offset=${atSecond}`), [plans[1], plans[2]], 'ascending: the second again, then the third');
  t.same(await ids(`offset=${atSecond}&descending=1`), [plans[1], plans[0]], 'descending: the second again, then the first');

  const live = await openLiveFeed(`${server.url}${API}/plans`, { 'last-event-id': atSecond });
  t.teardown(() => live.close());
  const got: string[] = [];
  while (got.length < 2) {
    const event = await live.next(5000);
    if (!event) break;
    if (event.data !== null) got.push(JSON.parse(event.data).id);
  }
  t.same(got, [plans[1], plans[2]], "a live feed's Last-Event-ID in the reference's form: from that time on");
  const bad = `${positions[1]}.1.${'x'.repeat(32)}`;
  const broken = await openLiveFeed(`${server.url}${API}/plans`, { 'last-event-id': bad });
  t.teardown(() => broken.close());
  t.equal(broken.status, 404, 'a broken Last-Event-ID is refused');
  t.same(broken.body, err('header', 'Last-Event-ID', `Invalid offset provided: ${bad}`));
});
