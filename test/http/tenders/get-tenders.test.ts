import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { aTender, createLottedTender, createTender } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const activate = (id: string, token: string) =>
  server.request('PATCH', `/api/2.5/tenders/${id}`, { key: 'broker', token, body: { data: { status: 'active.enquiries' } } });
const ids = (body: any) => body.data.map((e: { id: string }) => e.id);

t.test('a draft is readable by anyone by its id, without secrets', async (t) => {
  const tender = await createTender(server, aTender());
  const res = await server.request('GET', `/api/2.5/tenders/${tender.id}`);
  t.equal(res.status, 200);
  t.same(res.body, { data: tender.data, config: tender.config });
});

t.test('the default feed lists active tenders with id and dateModified, not test-mode ones', async (t) => {
  const live = await createLottedTender(server);
  await activate(live.id, live.token);
  const test = await createTender(
    server,
    aTender({
      mode: 'test',
      lots: [{ id: 'e'.repeat(32), title: 'l', value: { amount: 500 }, minimalStep: { amount: 15 } }],
      items: [{ ...aTender().items[0], relatedLot: 'e'.repeat(32) }],
    }),
  );
  await activate(test.id, test.token);
  const feed = await server.request('GET', '/api/2.5/tenders');
  t.ok(ids(feed.body).includes(live.id));
  t.notOk(ids(feed.body).includes(test.id));
  t.same(Object.keys(feed.body.data.find((e: { id: string }) => e.id === live.id)).sort(), ['dateModified', 'id']);
  const testFeed = await server.request('GET', '/api/2.5/tenders?mode=test');
  t.ok(ids(testFeed.body).includes(test.id));
  t.match(feed.body.next_page, { offset: Number, path: /^\/api\/2\.5\/tenders\?offset=/ });
});
