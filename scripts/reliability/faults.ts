import { spawn } from 'node:child_process';
import { startLocalRedis } from '../../cluster/redis-server';
import { openStore } from '../../src/store/open-store';
import { updateOf } from '../../src/domain/save-rules';
import { HEARTBEAT_TTL_MS, startTestCluster } from '../../test/cluster/fixtures';
import { activeFramework, aFramework } from '../../test/fixtures/frameworks';
import { CookieJar, request, startTestServer } from '../../test/fixtures/server';
import { stalledStore, storeGate } from './slow-store';

const API = '/api/2.5';

export interface FaultOutcome {
  fault: string;
  survived: boolean;
  detail: string;
}

/** A store that stops answering, behind REQUEST_TIMEOUT_MS=2000: reads and writes get a clear 503, then recover. */
export async function slowStoreFault(): Promise<FaultOutcome> {
  const gate = storeGate();
  const server = await startTestServer({ env: { REQUEST_TIMEOUT_MS: '2000' }, wrapStore: (store) => stalledStore(store, gate.ready) });
  try {
    const framework = await activeFramework(server);
    const path = `${API}/frameworks/${framework.id}`;
    gate.stall();
    const [read, write] = await Promise.all([
      server.request('GET', path),
      server.request('PATCH', path, { key: 'broker', token: framework.token, body: { data: { description: 'slow' } } }),
    ]);
    gate.release();
    const after = await server.request('GET', path);
    const statuses = [read.status, write.status, after.status];
    const timedOut = [read, write].every((r) => r.status === 503 && r.body?.errors?.[0]?.name === 'timeout');
    return {
      fault: 'stalled store (REQUEST_TIMEOUT_MS=2000)',
      survived: timedOut && after.status === 200,
      detail: `statuses ${statuses.join(', ')}`,
    };
  } finally {
    await server.close();
  }
}

/** Another process holds SQLite's write lock for `holdMs` (under the 5 s busy timeout): the PATCH waits and succeeds. */
export async function sqliteLockFault(holdMs = 1500): Promise<FaultOutcome> {
  const server = await startTestServer();
  try {
    if (server.store.engine !== 'sqlite')
      return { fault: 'SQLite write lock held by another process', survived: true, detail: 'skipped: not SQLite' };
    const framework = await activeFramework(server);
    const file = server.config.storeUrl.replace(/^sqlite:/, '');
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = require('better-sqlite3')(${JSON.stringify(file)}); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => db.exec('COMMIT'), ${holdMs});`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const write = await server.request('PATCH', `${API}/frameworks/${framework.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { description: 'after the lock' } },
    });
    await new Promise((resolve) => holder.once('exit', resolve));
    return {
      fault: `SQLite write lock held ${holdMs} ms by another process`,
      survived: write.status === 200,
      detail: `PATCH ${write.status}`,
    };
  } finally {
    await server.close();
  }
}

/**
 * Redis killed under 2 API nodes and a worker: reads and writes (with cookies) keep being served; a framework
 * whose next_check passed while Redis was down is checked by the worker's sweeper once Redis is back.
 */
export async function redisOutageFault(): Promise<FaultOutcome> {
  let redis = await startLocalRedis();
  const port = Number(new URL(redis.url).port);
  const cluster = await startTestCluster({
    nodes: 2,
    worker: true,
    redisUrl: redis.url,
    env: { SWEEP_INTERVAL_MS: '300', SWEEP_GRACE_MS: '0' },
  });
  const store = await openStore(cluster.storeUrl);
  try {
    const [a, b] = cluster.api;
    const jar = new CookieJar();
    const created = await request(a.url, 'POST', `${API}/frameworks`, { key: 'broker', jar, body: { data: aFramework(new Date()) } });
    const { id } = created.body.data;
    const token = created.body.access.token;
    await redis.stop();
    const during: number[] = [];
    for (let i = 0; i < 5; i++) {
      const node = i % 2 ? b : a;
      during.push(
        (await request(node.url, 'PATCH', `${API}/frameworks/${id}`, { key: 'broker', jar, token, body: { data: { status: 'active' } } }))
          .status,
      );
      during.push((await request(node.url, 'GET', `${API}/frameworks/${id}`, { jar })).status);
    }
    // The qualification period ends while Redis is out: the job planned for it can never run.
    const stored = (await store.session().get('frameworks', id))!;
    const past = new Date(Date.now() - 60_000).toISOString();
    const doc = structuredClone(stored.doc);
    doc.data.qualificationPeriod = { ...doc.data.qualificationPeriod, endDate: past };
    doc.data.next_check = past;
    await store.session().commit([updateOf(stored, doc as never)]);
    redis = await startLocalRedis(port);
    const healed = await waitForStatus(a.url, id, (s) => s !== 'active', 20 * HEARTBEAT_TTL_MS);
    const served = during.every((s) => s === 200);
    return {
      fault: 'Redis killed and restarted',
      survived: served && healed !== null,
      detail: `during the outage ${during.join(',')}; after restart the overdue framework became ${healed ?? 'nothing (not healed)'}`,
    };
  } finally {
    await store.close();
    await cluster.stop();
    await redis.stop();
  }
}

/** Polls a framework's status until `done` or `withinMs`; the sweeper runs on real time in a cluster. */
async function waitForStatus(url: string, id: string, done: (status: string) => boolean, withinMs: number): Promise<string | null> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const status = (await request(url, 'GET', `${API}/frameworks/${id}`)).body?.data?.status;
    if (typeof status === 'string' && done(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}
