import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import t, { type Test } from 'tap';
import { updateOf } from '../../src/domain/save-rules';
import { QUEUE_NAME } from '../../src/jobs/check-queue';
import { sweeperRecoveries } from '../../src/jobs/job-metrics';
import { startJobs, type Jobs } from '../../src/jobs/start-jobs';
import { metrics } from '../../src/metrics';
import { openStore } from '../../src/store/open-store';
import type { Store } from '../../src/store/port';
import { ManualClock, systemClock, type Clock } from '../../src/time/clock';
import { startRedis, type TestRedis } from './fixtures/redis';
import { eventually, getTender, insertTender, testRegistry } from './fixtures/tenders';

const HOUR = 3_600_000;
const LOCK_MS = 1000;
let redis: TestRedis;
let storeUrl: string;

t.before(async () => {
  redis = await startRedis();
});
t.teardown(() => redis.stop());

t.beforeEach(async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'queue-'));
  storeUrl = `sqlite:${join(dir, 'registry.db')}`;
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
});

interface TestNode {
  jobs: Jobs;
  /** The node's own store connection, without scheduling: for reading back. */
  raw: Store;
}

/** A node of the cluster: its own store connection to the shared SQLite file, its own Bull connections. */
async function node(t: Test, role: 'api' | 'worker', clock: Clock = systemClock): Promise<TestNode> {
  const raw = await openStore(storeUrl);
  const jobs = await startJobs(
    { role, redisUrl: redis.url, nodeId: `${role}-${Math.random()}`, workerConcurrency: 4, sweepIntervalMs: HOUR, sweepGraceMs: 0 },
    raw,
    clock,
    pino({ level: 'silent' }),
    { registry: testRegistry, tuning: { lockDurationMs: LOCK_MS, stalledIntervalMs: LOCK_MS / 2, backoffMs: 100 } },
  );
  await jobs.queue!.isReady();
  t.teardown(async () => {
    await jobs.stop();
    await raw.close();
  });
  return { jobs, raw };
}

t.afterEach(async () => {
  const { default: Redis } = await import('ioredis');
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
});

const soon = (ms: number) => new Date(Date.now() + ms);

t.test('an object saved on an api node moves on its own at next_check, on a worker node that did not create it', async (t) => {
  const api = await node(t, 'api');
  const worker = await node(t, 'worker');
  const id = await insertTender(api.jobs.store, soon(300), soon(HOUR));
  t.equal((await getTender(worker.raw, id)).rev, 1);
  const moved = await eventually(
    () => getTender(worker.raw, id),
    (s) => s.rev === 2,
  );
  t.same([moved.rev, moved.doc.data.status], [2, 'active.tendering']);
});

t.test("re-saving with a new next_check replaces the object's pending job; clearing next_check removes it", async (t) => {
  const api = await node(t, 'api');
  const first = soon(HOUR);
  const id = await insertTender(api.jobs.store, first, soon(5 * HOUR));
  const delayedIds = () => api.jobs.queue!.getDelayed().then((jobs) => jobs.map((j) => String(j.id)).sort());
  t.same(await eventually(delayedIds, (ids) => ids.length === 1), [`tenders:${id}:${first.getTime()}`]);

  const second = soon(2 * HOUR);
  let stored = await getTender(api.raw, id);
  await api.jobs.store
    .session()
    .commit([updateOf(stored, { ...stored.doc, data: { ...stored.doc.data, next_check: second.toISOString() } })]);
  t.same(await eventually(delayedIds, (ids) => ids[0] !== `tenders:${id}:${first.getTime()}`), [`tenders:${id}:${second.getTime()}`]);

  stored = await getTender(api.raw, id);
  const { next_check: _cleared, ...data } = stored.doc.data;
  await api.jobs.store.session().commit([updateOf(stored, { ...stored.doc, data })]);
  t.same(await eventually(delayedIds, (ids) => ids.length === 0), []);
});

t.test('a job deleted from Redis is healed by the sweeper: the overdue object moves once', async (t) => {
  const clock = new ManualClock(new Date('2026-10-05T12:00:00+03:00'));
  const worker = await node(t, 'worker', clock);
  const due = new Date(clock.now().getTime() + HOUR);
  const id = await insertTender(worker.jobs.store, due, new Date(due.getTime() + 4 * HOUR));
  await eventually(
    () => worker.jobs.queue!.getDelayedCount(),
    (n) => n === 1,
  );
  await worker.jobs.queue!.client.flushall();
  const before = (await sweeperRecoveries.get()).values.find((v) => v.labels.kind === 'tenders')?.value ?? 0;
  clock.advance(2 * HOUR);
  t.equal(await worker.jobs.sweeper!.sweep(), 1);
  t.match(await getTender(worker.raw, id), { rev: 2, doc: { data: { status: 'active.tendering' } } });
  const after = (await sweeperRecoveries.get()).values.find((v) => v.labels.kind === 'tenders')?.value ?? 0;
  t.equal(after - before, 1);
  t.equal(await worker.jobs.sweeper!.sweep(), 0, 'a second sweep finds nothing overdue');
});

t.test('while another node holds the sweeper lock, a sweep checks nothing', async (t) => {
  const clock = new ManualClock(new Date('2026-10-05T12:00:00+03:00'));
  const worker = await node(t, 'worker', clock);
  const id = await insertTender(worker.raw, clock.now(), new Date(clock.now().getTime() + HOUR));
  await worker.jobs.queue!.client.set(`bull:${QUEUE_NAME}:sweeper-lock`, 'another-node', 'PX', 60_000);
  t.equal(await worker.jobs.sweeper!.sweep(), 0);
  t.equal((await getTender(worker.raw, id)).rev, 1);
});

t.test('two workers with duplicate jobs and concurrent sweeps apply each transition exactly once', async (t) => {
  const api = await node(t, 'api');
  const workers = [await node(t, 'worker'), await node(t, 'worker')];
  const due = soon(400);
  const ids = await Promise.all(Array.from({ length: 20 }, () => insertTender(api.jobs.store, due, soon(HOUR))));
  for (const id of ids) {
    await api.jobs.queue!.add({ kind: 'tenders', id, dueAt: due.getTime() }, { jobId: `duplicate:${id}`, delay: 400 });
  }
  await new Promise((resolve) => setTimeout(resolve, 450));
  await Promise.all(workers.map((w) => w.jobs.sweeper!.sweep()));
  const all = await eventually(
    () => Promise.all(ids.map((id) => getTender(api.raw, id))),
    (objects) => objects.every((o) => o.rev >= 2),
  );
  await eventually(
    () => api.jobs.queue!.getJobCounts(),
    (c) => c.active + c.waiting === 0,
  );
  const final = await Promise.all(ids.map((id) => getTender(api.raw, id)));
  t.same(new Set(final.map((o) => o.rev)), new Set([2]));
  t.same(new Set(all.map((o) => o.doc.data.status)), new Set(['active.tendering']));
});

t.test('a worker killed mid-job leaves the object untouched, and another worker retries the job once', async (t) => {
  const api = await node(t, 'api');
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures/hanging-worker.ts')], {
    env: { ...process.env, REDIS_URL: redis.url, STORE_URL: storeUrl, LOCK_MS: String(LOCK_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    child.kill('SIGKILL');
    return exited;
  });
  const started = new Promise<string>((resolve) => child.stdout.on('data', (chunk) => resolve(String(chunk))));
  const id = await insertTender(api.jobs.store, soon(200), soon(HOUR));
  t.match(await started, `started ${id}`);
  child.kill('SIGKILL');
  await exited;
  t.equal((await getTender(api.raw, id)).rev, 1, 'nothing was written by the killed worker');

  const survivor = await node(t, 'worker');
  const moved = await eventually(
    () => getTender(survivor.raw, id),
    (s) => s.rev === 2,
    30_000,
  );
  t.same([moved.rev, moved.doc.data.status], [2, 'active.tendering']);
});

t.test('the metrics registry exposes queue depth, latency, runs and recoveries after a sweep', async (t) => {
  const worker = await node(t, 'worker');
  await worker.jobs.sweeper!.sweep();
  const text = await metrics.metrics();
  t.match(text, /registry_next_check_queue_depth\{state="delayed"\} \d+/);
  t.match(text, /registry_next_check_latency_seconds_bucket/);
  t.match(text, /registry_next_check_runs_total/);
  t.match(text, /registry_next_check_sweeper_recoveries_total/);
});
