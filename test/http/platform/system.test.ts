import t from 'tap';
import { CONSTANTS } from '../../../src/domain/core/constants';
import { startTestServer, type TestServer } from '../../fixtures/server';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

t.test("GET /constants → the spec's 39 names and values, in the spec's order", async (t) => {
  const res = await server.request('GET', '/api/2.5/constants');
  t.equal(res.status, 200);
  t.equal(Object.keys(res.body).length, 39);
  t.same(Object.keys(res.body), Object.keys(CONSTANTS));
  t.equal(res.body.CPV_336_INN_FROM, '2019-02-27T00:00:00+02:00');
  t.equal(res.body.NEW_CONTRACTING_FROM, '2023-10-05T00:00:00+03:00');
  t.equal(Object.keys(res.body)[0], 'BUDGET_PERIOD_FROM');
  t.equal(Object.keys(res.body)[38], 'NEW_CONTRACTING_FROM');
});

t.test('GET /healthz → 200 while the process is up', async (t) => {
  t.match(await server.request('GET', '/healthz'), { status: 200, body: { status: 'ok' } });
});

t.test('GET /readyz → 200 when the store answers', async (t) => {
  t.match(await server.request('GET', '/readyz'), { status: 200, body: { status: 'ok' } });
});

t.test('an incoming X-Request-ID is echoed; without one a fresh id is given', async (t) => {
  const echoed = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
  t.equal(echoed.headers.get('x-request-id'), 'abc-123');
  const fresh = await server.request('GET', '/healthz');
  t.match(fresh.headers.get('x-request-id'), /^[0-9a-f-]{36}$/);
});

t.test('GET /metrics on the API → 404: metrics have their own listener (METRICS_PORT)', async (t) => {
  t.equal((await server.request('GET', '/metrics')).status, 404);
});

t.test('HEAD /spore gives a SESSION cookie and no body; GET /spore describes the API at version 2.5', async (t) => {
  const head = await server.request('HEAD', '/api/2.5/spore');
  t.equal(head.status, 200);
  t.match(head.headers.get('set-cookie'), /^SESSION=[^;]+; Path=\/$/);
  t.equal(head.text, '');
  const get = await server.request('GET', '/api/2.5/spore');
  t.equal(get.body.version, '2.5');
  t.same(get.body.methods.get_constants, { path: '/api/2.5/constants', method: 'GET', formats: ['json'] });
});

t.test('GET /api/2.5 → the collections with their feed links, the OpenAPI document and SPORE, each answering', async (t) => {
  const res = await server.request('GET', '/api/2.5');
  t.equal(res.status, 200);
  const { collections, openapi, spore, version } = res.body.data;
  t.equal(version, '2.5');
  t.same(collections.map((c: { name: string }) => c.name).sort(), [
    'agreements',
    'contracts',
    'frameworks',
    'plans',
    'qualifications',
    'submissions',
    'tenders',
  ]);
  for (const link of [...collections.map((c: { href: string }) => c.href), openapi, spore]) {
    t.match(link, new RegExp(`^${server.url}/api/2\\.5/`), link);
    const followed = await fetch(link);
    t.equal(followed.status, 200, link);
  }
  const document = await server.request('GET', '/api/2.5/openapi.json');
  t.ok(document.body.paths['/api/2.5'], 'the index is in the OpenAPI document');
});

t.test('GET /api/2.5 with PUBLIC_BASE_URL → links on that base', async (t) => {
  const behind = await startTestServer({ env: { PUBLIC_BASE_URL: 'https://registry.example' } });
  t.teardown(() => behind.close());
  const res = await behind.request('GET', '/api/2.5');
  t.equal(res.body.data.openapi, 'https://registry.example/api/2.5/openapi.json');
  t.equal(res.body.data.collections.find((c: { name: string }) => c.name === 'tenders').href, 'https://registry.example/api/2.5/tenders');
});
