import t from 'tap';
import { encodeSession } from '../../src/http/session';
import { aFramework } from '../fixtures/frameworks';
import { startTestServer, type TestServer } from '../fixtures/server';
import { ReferenceClient } from './reference-client';

async function openedClient(server: TestServer, resource = 'frameworks', params?: Record<string, string>) {
  const client = new ReferenceClient(server.url, 'broker', resource, params);
  await client.open();
  return client;
}

/** Creates and activates a framework the way the client does (POST json, PATCH as a JSON string). */
async function activeFramework(server: TestServer, client: ReferenceClient, overrides: Record<string, unknown> = {}) {
  const created = await client.createResourceItem({ data: aFramework(server.clock.now(), overrides) });
  if (created.status !== 201) throw new Error(`framework not created: ${created.status} ${JSON.stringify(created.body)}`);
  const activated = await client.patchResourceItem(created.body.data.id, { data: { status: 'active' } }, created.body.access.token);
  if (activated.status !== 200) throw new Error(`framework not activated: ${activated.status} ${JSON.stringify(activated.body)}`);
  return created.body.data.id as string;
}

t.test('HEAD /api/2.5/spore → 200 with an empty body and a SESSION cookie on Path=/', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = new ReferenceClient(server.url, 'broker', 'frameworks');
  const reply = await client.open();
  t.equal(reply.status, 200);
  t.match(reply.headers.get('set-cookie'), /^SESSION=[\w.-]+; Path=\/$/);
  const spore = await client.request('GET', `${server.url}/api/2.5/spore`);
  t.equal(spore.body.version, '2.5');
});

t.test('the whole Set-Cookie value echoed as Cookie keeps the session: reads see the client’s own writes', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = await openedClient(server);
  const id = await activeFramework(server, client);
  const read = await client.getResourceItem(id);
  t.equal(read.status, 200);
  t.equal(read.body.data.status, 'active');
  const last = client.sent[client.sent.length - 1];
  t.match(last.headers.Cookie, /^SESSION=[\w.-]+; Path=\/$/, 'the attributes travel back too');
  t.match(last.headers.authorization, /^Basic /);
});

t.test('a Set-Cookie-shaped Cookie naming a gone node → 412 with a fresh cookie; the repeat succeeds', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = await openedClient(server);
  const gone = encodeSession({ node: 'gone-node', causal: { seq: 0 } }, server.config.sessionSecret);
  client.headers.Cookie = `SESSION=${gone}; Path=/`;
  const refused = await client.request('GET', `${server.url}/api/2.5/frameworks`);
  t.equal(refused.status, 412);
  t.same(refused.body, { status: 'error', errors: [{ location: 'url', name: 'precondition', description: 'Precondition Failed' }] });
  t.notMatch(client.headers.Cookie, gone, 'the client took the new cookie from the 412');
  const repeated = await client.request('GET', `${server.url}/api/2.5/frameworks`);
  t.equal(repeated.status, 200);
});

t.test('Basic auth with an unknown key and an empty password → 403 in the reference format', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = new ReferenceClient(server.url, 'no-such-key', 'frameworks');
  await client.open();
  const reply = await client.createResourceItem({ data: aFramework(server.clock.now()) });
  t.equal(reply.status, 403);
  t.same(reply.body, { status: 'error', errors: [{ location: 'url', name: 'permission', description: 'Forbidden' }] });
});

t.test('a PATCH body sent as a JSON string with X-Access-Token → 200 and the change applied', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = await openedClient(server);
  const created = await client.createResourceItem({ data: aFramework(server.clock.now()) });
  const patched = await client.patchResourceItem(created.body.data.id, { data: { title: 'Нова назва' } }, created.body.access.token);
  t.equal(patched.status, 200);
  t.equal(patched.body.data.title, 'Нова назва');
  t.equal(typeof client.sent[client.sent.length - 1].body, 'string');
});

t.test('crawling with limit, opt_fields and mode=_all_ by next_page.offset lists every object once, in order', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const writer = await openedClient(server);
  const ids = [
    await activeFramework(server, writer),
    await activeFramework(server, writer, { mode: 'test' }),
    await activeFramework(server, writer),
    await activeFramework(server, writer),
    await activeFramework(server, writer, { mode: 'test' }),
  ];
  const crawler = await openedClient(server, 'frameworks');
  const seen: { id: string; status: string }[] = [];
  for (let page = 0; page < 10; page++) {
    const reply = await crawler.getResourceItems({ limit: '2', opt_fields: 'status' });
    t.equal(reply.status, 200);
    if (reply.body.data.length === 0) break;
    seen.push(...reply.body.data);
  }
  t.same(
    seen.map((entry) => entry.id),
    ids,
    'test-mode objects included, each once',
  );
  t.ok(
    seen.every((entry) => entry.status === 'active'),
    'opt_fields honoured',
  );
  t.match(crawler.params, { mode: '_all_', feed: 'changes', limit: '2', opt_fields: 'status' });

  const stoppedAt = crawler.params.offset;
  const empty = await crawler.getResourceItems();
  t.same(empty.body.data, []);
  t.equal(crawler.params.offset, stoppedAt, 'an empty page keeps the position');
  const later = await activeFramework(server, writer);
  const resumed = await crawler.getResourceItems();
  t.same(
    resumed.body.data.map((entry: { id: string }) => entry.id),
    [later],
    'the empty page’s next_page finds the next change',
  );
});

t.test('crawling with descending=1 lists newest first and ends with an empty page', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const writer = await openedClient(server);
  const ids = [await activeFramework(server, writer), await activeFramework(server, writer), await activeFramework(server, writer)];
  const crawler = await openedClient(server, 'frameworks');
  const seen: string[] = [];
  for (let page = 0; page < 5; page++) {
    const reply = await crawler.getResourceItems({ descending: '1', limit: '2' });
    if (reply.body.data.length === 0) break;
    seen.push(...reply.body.data.map((entry: { id: string }) => entry.id));
  }
  t.same(seen, [...ids].reverse());
});

t.test('an invalid offset → 404 "Invalid offset provided"; the client drops it and crawls from the start', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const writer = await openedClient(server);
  const id = await activeFramework(server, writer);
  const crawler = await openedClient(server, 'frameworks', { mode: '_all_', offset: 'not-an-offset' });
  const refused = await crawler.getResourceItems();
  t.equal(refused.status, 404);
  t.same(refused.body, {
    status: 'error',
    errors: [{ location: 'querystring', name: 'offset', description: 'Invalid offset provided: not-an-offset' }],
  });
  t.notOk('offset' in crawler.params);
  const restarted = await crawler.getResourceItems();
  t.same(
    restarted.body.data.map((entry: { id: string }) => entry.id),
    [id],
  );
});
