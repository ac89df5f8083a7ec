import t from 'tap';
import { ReferenceClient } from '../../ecosystem/reference-client';
import { DEFAULT_NOW, startTestServer, type TestServer } from '../../fixtures/server';
import { aPlan, createPlan, planOrganization, type CreatedPlan } from '../../fixtures/plans';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const feed = async (query = '') => (await server.request('GET', `/api/2.5/plans${query}`)).body;
const patch = (plan: CreatedPlan, data: unknown) =>
  server.request('PATCH', `/api/2.5/plans/${plan.id}`, { key: 'broker', token: plan.token, body: { data } });

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
  t.same(
    after.data.map((e: { id: string }) => e.id),
    [draft.id],
    'the next page starts with the change after the last listed one',
  );
});

t.test('descending lists newest changes first', async (t) => {
  server.clock.advance(10); // a feed tick apart from the plans before (docs/platform.md §Feeds)
  const first = await createPlan(server);
  const second = await createPlan(server);
  const page = await feed('?descending=1&limit=2');
  t.same(
    page.data.map((e: { id: string }) => e.id),
    [second.id, first.id],
  );
  t.match(page.prev_page, { offset: Number });
});

t.test(
  "the reference's crawler pointed at /plans follows next_page to the end, every plan once, and a change brings it back",
  async (t) => {
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
    t.same(
      seen,
      created.map((p) => p.id),
    );
    const rationale = await crawlServer.request('PATCH', `/api/2.5/plans/${created[1].id}`, {
      key: 'broker',
      token: created[1].token,
      body: { data: { rationale: { description: 'Нове' } } },
    });
    t.equal(rationale.status, 200);
    const resumed = await client.getResourceItems();
    t.same(
      resumed.body.data.map((e: { id: string; status: string }) => [e.id, e.status]),
      [[created[1].id, 'scheduled']],
    );
  },
);

/** Follows the plan feed's `next_page` from `offset` to an empty page: each plan's `procuringEntity.name`, and the last offset. */
async function crawl(offset?: string): Promise<{ names: Map<string, string>; offset: string }> {
  const names = new Map<string, string>();
  let next = offset;
  for (;;) {
    const path = `/api/2.5/plans?opt_fields=procuringEntity&limit=5${next === undefined ? '' : `&offset=${next}`}`;
    const reply = await server.request('GET', path);
    if (reply.status !== 200) throw new Error(`feed ${path}: ${reply.status} ${reply.text}`);
    next = String(reply.body.next_page.offset);
    if (reply.body.data.length === 0) return { names, offset: next };
    for (const e of reply.body.data) names.set(e.id, e.procuringEntity.name);
  }
}

t.test('a crawler following next_page while writers create and patch plans sees the last acknowledged write of each', async (t) => {
  const acknowledged = new Map<string, string>();
  const seen = new Map<string, string>();
  let crawling = true;
  let offset: string | undefined;
  const crawler = (async () => {
    while (crawling) {
      const page = await crawl(offset);
      offset = page.offset;
      for (const [id, name] of page.names) seen.set(id, name);
    }
  })();
  const named = (name: string) => ({ ...planOrganization(), name });
  await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      const plan = await createPlan(server, aPlan({ procuringEntity: named(`writer ${w} created`) }));
      acknowledged.set(plan.id, `writer ${w} created`);
      for (let i = 0; i < 6; i += 1) {
        const reply = await patch(plan, { procuringEntity: named(`writer ${w} write ${i}`) });
        t.equal(reply.status, 200);
        acknowledged.set(plan.id, `writer ${w} write ${i}`);
      }
    }),
  );
  crawling = false;
  await crawler;
  for (const [id, name] of (await crawl(offset)).names) seen.set(id, name);
  for (const [id, name] of acknowledged) t.equal(seen.get(id), name, `plan ${id} at its last acknowledged state`);
});
