import t from 'tap';
import Koa from 'koa';
import Redis from 'ioredis';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { authenticate, loadAuthFile } from '../../src/http/auth';
import type { RequestState } from '../../src/http/context';
import { errorRenderer } from '../../src/http/errors';
import { rateLimit } from '../../src/http/rate-limit';
import { request, startTestServer } from '../fixtures/server';
import { startRedis } from '../jobs/fixtures/redis';
import { aFramework } from '../fixtures/frameworks';
import { stalledStore, storeGate } from '../../scripts/reliability/slow-store';
import { koaHandler } from '../../src/http/koa-handler';

const TOO_MANY = { status: 'error', errors: [{ location: 'header', name: 'Authorization', description: 'Too Many Requests' }] };

t.test('RATE_LIMIT_PER_MINUTE=3: the 4th request of a key → 429 with Retry-After, other keys unaffected', async (t) => {
  const server = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  t.teardown(() => server.close());
  for (let i = 0; i < 3; i++) t.equal((await server.request('GET', '/api/2.5/frameworks', { key: 'broker1' })).status, 200);
  const refused = await server.request('GET', '/api/2.5/frameworks', { key: 'broker1' });
  t.equal(refused.status, 429);
  t.same(refused.body, TOO_MANY);
  t.ok(Number(refused.headers.get('retry-after')) >= 1);
  t.equal((await server.request('GET', '/api/2.5/frameworks', { key: 'broker2' })).status, 200, 'another key has its own budget');
});

t.test('without TRUST_PROXY a client cannot choose its address: X-Forwarded-For and X-Forwarded-Host are ignored', async (t) => {
  const server = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  t.teardown(() => server.close());
  const forwarded = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}`, 'x-forwarded-host': 'attacker.example' });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await server.request('GET', '/api/2.5/frameworks', { headers: forwarded(i) })).status);
  t.same(statuses, [200, 200, 200, 429], 'anonymous readers counted by the socket address');
  const unknownKey = await server.request('GET', '/api/2.5/frameworks', { key: 'no-such-key', headers: forwarded(9) });
  t.equal(unknownKey.status, 429, 'a request with an unknown key is an anonymous one from the same address');
  const created = await server.request('POST', '/api/2.5/frameworks', {
    key: 'broker',
    headers: forwarded(10),
    body: { data: aFramework(server.clock.now()) },
  });
  t.match(created.headers.get('location'), /^http:\/\/127\.0\.0\.1:\d+\/api\/2\.5\/frameworks\//, 'Location on the real host');
});

for (const trust of ['loopback', '1', '127.0.0.1/8, ::1']) {
  t.test(`TRUST_PROXY=${trust}: the right-most address the trusted proxy adds is the client's, whatever the client wrote`, async (t) => {
    const server = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: trust } });
    t.teardown(() => server.close());
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const headers = { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` };
      statuses.push((await server.request('GET', '/api/2.5/frameworks', { headers })).status);
    }
    t.same(statuses, [200, 200, 200, 429], 'one client, whatever it put on the left');
    const other = await server.request('GET', '/api/2.5/frameworks', { headers: { 'x-forwarded-for': '203.0.113.8' } });
    t.equal(other.status, 200, 'another client behind the proxy has its own budget');
    const created = await server.request('POST', '/api/2.5/frameworks', {
      key: 'broker',
      headers: { 'x-forwarded-host': 'registry.example', 'x-forwarded-proto': 'https' },
      body: { data: aFramework(server.clock.now()) },
    });
    t.match(created.headers.get('location'), /^https:\/\/registry\.example\/api\/2\.5\/frameworks\//, "the proxy's host and protocol");
  });
}

t.test('TRUST_PROXY naming another proxy: forwarded headers from this peer are ignored', async (t) => {
  const server = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '10.0.0.0/8' } });
  t.teardown(() => server.close());
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push((await server.request('GET', '/api/2.5/frameworks', { headers: { 'x-forwarded-for': `203.0.113.${i}` } })).status);
  }
  t.same(statuses, [200, 200, 200, 429]);
});

t.test('limits counted in Redis are shared by two nodes; with Redis stopped requests are served unlimited', async (t) => {
  const redis = await startRedis();
  const clients = [new Redis(redis.url, { maxRetriesPerRequest: 1 }), new Redis(redis.url, { maxRetriesPerRequest: 1 })];
  clients.forEach((c) => c.on('error', () => {}));
  const nodes = await Promise.all(clients.map((client) => limitedNode(client)));
  t.teardown(() => {
    nodes.forEach((n) => n.close());
    clients.forEach((c) => c.disconnect());
  });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await request(nodes[i % 2].url, 'GET', '/', { key: 'broker1' })).status);
  t.same(statuses, [200, 200, 200, 429]);
  await redis.stop();
  t.equal((await request(nodes[0].url, 'GET', '/', { key: 'broker1' })).status, 200);
});

/** The limiter alone behind the error renderer, as the request frame calls it. */
async function limitedNode(client: Redis) {
  const app = new Koa<RequestState>();
  app.use(errorRenderer());
  app.use(authenticate(loadAuthFile(join(__dirname, '../../auth.ini'))));
  const limitRate = rateLimit(3, client);
  app.use(async (ctx) => {
    await limitRate(ctx);
    ctx.body = { ok: true };
  });
  const server = createServer(koaHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

t.test('without RATE_LIMIT_PER_MINUTE nothing is limited', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const replies = await Promise.all(Array.from({ length: 50 }, () => server.request('GET', '/api/2.5/frameworks', { key: 'broker1' })));
  t.same([...new Set(replies.map((r) => r.status))], [200]);
});

t.test('REQUEST_TIMEOUT_MS with a stalled store → 503 in the error format; the same request succeeds once the store answers', async (t) => {
  const gate = storeGate();
  const server = await startTestServer({ env: { REQUEST_TIMEOUT_MS: '1000' }, wrapStore: (store) => stalledStore(store, gate.ready) });
  t.teardown(() => server.close());
  const created = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', body: { data: aFramework(server.clock.now()) } });
  const path = `/api/2.5/frameworks/${created.body.data.id}`;
  gate.stall();
  const slow = await server.request('GET', path);
  gate.release();
  t.equal(slow.status, 503);
  t.same(slow.body, { status: 'error', errors: [{ location: 'url', name: 'timeout', description: 'Request took longer than 1000 ms' }] });
  t.equal((await server.request('GET', path)).status, 200);
});
