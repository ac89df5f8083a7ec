import t from 'tap';
import { ReferenceClient } from '../../ecosystem/reference-client';
import { DEFAULT_NOW, startTestServer, type TestServer } from '../../fixtures/server';
import { aPlan, createPlan, type CreatedPlan } from '../../fixtures/plans';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const feed = async (query = '') => (await server.request('GET', `/api/2.5/plans${query}`)).body;
const patch = (plan: CreatedPlan, data: unknown) => server.request('PATCH', `/api/2.5/plans/${plan.id}`, { key: 'broker', token: plan.token, body: { data } });

t.test('the feed lists scheduled plans, not drafts, with the allowed opt_fields only; a scheduled draft joins it', async (t) => {
  const draft = await createPlan(server, aPlan({ status: 'draft' }));
  const scheduled = await createPlan(server);
  const page = await feed('?opt_fields=status,planID,procuringEntity,budget,mode');
  const ids = page.data.map((e: { id: string }) => e.id);
  t.ok(ids.includes(scheduled.id));
  t.notOk(ids.includes(draft.id), 'drafts are not listed');
  const entry = page.data.find((e: { id: string }) => e.id === scheduled.id);
  t.same(Object.keys(entry), ['id', 'dateModified', 'planID', 'procuringEntity', 'status'], 'budget is no listed field; mode is absent');
  t.match(page.next_page, { offset: Number, path: /^\/api\/2\.5\/plans\?opt_fields=mode%2CplanID%2CprocuringEntity%2Cstatus&offset=/ });
  await patch(draft, { status: 'scheduled' });
  const after = await feed(`?offset=${page.next_page.offset}`);
  t.same(after.data.map((e: { id: string }) => e.id), [draft.id], 'the next page starts with the change after the last listed one');
});

t.test('descending lists newest changes first', async (t) => {
  const first = await createPlan(server);
  const second = await createPlan(server);
  const page = await feed('?descending=1&limit=2');
  t.same(page.data.map((e: { id: string }) => e.id), [second.id, first.id]);
  t.match(page.prev_page, { offset: Number });
});

t.test("the reference's crawler pointed at /plans follows next_page to the end, every plan once, and a change brings it back", async (t) => {
  const crawlServer = await startTestServer();
  t.teardown(() => crawlServer.close());
  const created = [];
  for (let i = 0; i < 5; i++) created.push(await createPlan(crawlServer));
  const client = new ReferenceClient(crawlServer.url, 'broker', 'plans');
  await client.open();
  const seen: string[] = [];
  for (let pages = 0; pages < 10; pages++) {
    const reply = await client.getResourceItems({ limit: '2', opt_fields: 'status' });
    t.equal(reply.status, 200);
    if (reply.body.data.length === 0) break;
    seen.push(...reply.body.data.map((e: { id: string }) => e.id));
  }
  t.same(seen, created.map((p) => p.id));
  const rationale = await crawlServer.request('PATCH', `/api/2.5/plans/${created[1].id}`, {
    key: 'broker',
    token: created[1].token,
    body: { data: { rationale: { description: 'Нове' } } },
  });
  t.equal(rationale.status, 200);
  const resumed = await client.getResourceItems();
  t.same(resumed.body.data.map((e: { id: string; status: string }) => [e.id, e.status]), [[created[1].id, 'scheduled']]);
});
