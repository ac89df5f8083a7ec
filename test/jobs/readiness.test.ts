import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import t from 'tap';
import { loadConfig } from '../../src/config';
import { startNode, type RunningNode } from '../../src/node';
import { systemClock } from '../../src/time/clock';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { startRedis, type TestRedis } from './fixtures/redis';

let redis: TestRedis;
t.before(async () => {
  redis = await startRedis();
});
t.teardown(() => redis.stop());

async function workerNode(t: { teardown(fn: () => unknown): void }, redisUrl: string): Promise<RunningNode> {
  const dir = mkdtempSync(join(tmpdir(), 'readiness-'));
  const config = loadConfig({
    ROLE: 'worker',
    PORT: '0',
    METRICS_PORT: '0',
    REDIS_URL: redisUrl,
    STORE_URL: `sqlite:${join(dir, 'registry.db')}`,
    AUTH_FILE: join(__dirname, '../../auth.ini'),
    SESSION_SECRET: 'test-secret-test-secret',
    LOG_LEVEL: 'silent',
  });
  const node = await startNode(config, systemClock, pino({ level: 'silent' }));
  t.teardown(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return node;
}

/** Keeps a loopback port for the test's whole life, so no other test's server can take it meanwhile. */
async function holdPort(t: { teardown(fn: () => unknown): void }, server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
}

t.test('a ROLE=worker node that cannot reach Redis → GET /readyz 503 naming Redis', async (t) => {
  const resets = createServer((socket) => socket.destroy());
  const node = await workerNode(t, await holdPort(t, resets));
  const res = await fetch(`${node.url}/readyz`);
  t.equal(res.status, 503);
  t.match(await res.json(), { status: 'unavailable', problems: [/next_check queue: Redis/] });
});

t.test('a REDIS_URL that names an HTTP server → 503, and the node neither crashes nor fails to stop', async (t) => {
  const http = createHttpServer((_req, res) => res.end('not redis'));
  const node = await workerNode(t, await holdPort(t, http));
  for (let i = 0; i < 5; i += 1) {
    const res = await fetch(`${node.url}/readyz`);
    t.equal(res.status, 503);
    t.match(await res.json(), { problems: [/next_check queue: Redis/] });
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
});

t.test('a ROLE=worker node with Redis → GET /readyz 200', async (t) => {
  const node = await workerNode(t, redis.url);
  // The queue connects to Redis asynchronously; a loaded CI machine may need many seconds.
  let res = await fetch(`${node.url}/readyz`);
  for (let i = 0; i < 600 && res.status !== 200; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    res = await fetch(`${node.url}/readyz`);
  }
  t.equal(res.status, 200);
});

t.test('a ROLE=worker node serves the next_check series on its metrics port, and no API routes', async (t) => {
  const node = await workerNode(t, redis.url);
  t.match(await (await fetch(`${node.metricsUrl}/metrics`)).text(), /registry_next_check_runs_total/);
  t.equal((await fetch(`${node.url}/metrics`)).status, 404, 'not on its probe port');
  t.equal((await fetch(`${node.url}/api/2.5/tenders/${'0'.repeat(32)}/chronograph`, { method: 'PATCH' })).status, 404);
});
