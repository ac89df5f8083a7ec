import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import t from 'tap';
import type { CheckRegistry, CheckRunner } from '../../src/domain/core/check-runner';
import { startJobs, type JobsConfig } from '../../src/jobs/start-jobs';
import { openStore } from '../../src/store/open-store';
import type { Store } from '../../src/store/port';
import { ManualClock, systemClock } from '../../src/time/clock';
import { eventually, getTender, insertTender, tenderRunner, testRegistry } from './fixtures/tenders';

const T0 = new Date('2026-10-05T12:00:00+03:00');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
const config: JobsConfig = {
  role: 'all',
  redisUrl: null,
  nodeId: 'timer-test',
  workerConcurrency: 2,
  sweepIntervalMs: 3_600_000,
  sweepGraceMs: 0,
};

let raw: Store;
let dir: string;
t.beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'timer-'));
  raw = await openStore(`sqlite:${join(dir, 'registry.db')}`);
});
t.afterEach(async () => {
  await raw.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The timer as startJobs wires it, not started: only the test's tick() runs checks, at the ManualClock's time. */
async function manualTimer(clock: ManualClock, registry: CheckRegistry = testRegistry) {
  const jobs = await startJobs(config, raw, clock, pino({ level: 'silent' }), { registry, manualTimer: true });
  return { timer: jobs.timer!, store: jobs.store };
}

t.test('without REDIS_URL a ROLE=all node gets the in-process timer and no Redis readiness check', async (t) => {
  const jobs = await startJobs(config, raw, new ManualClock(T0), pino({ level: 'silent' }));
  t.teardown(() => jobs.stop());
  t.ok(jobs.timer);
  t.equal(jobs.queue, null);
  t.same(jobs.readinessChecks, []);
});

t.test('ROLE=api without REDIS_URL runs no timer', async (t) => {
  const jobs = await startJobs({ ...config, role: 'api' }, raw, new ManualClock(T0), pino({ level: 'silent' }));
  t.teardown(() => jobs.stop());
  t.equal(jobs.timer, null);
});

t.test('a tick before next_check → nothing moves; the object stays at rev 1', async (t) => {
  const clock = new ManualClock(T0);
  const jobs = await manualTimer(clock);
  const id = await insertTender(jobs.store, at(1), at(5));
  clock.set(at(0.99));
  t.equal(await jobs.timer.tick(), 0);
  t.equal((await getTender(raw, id)).rev, 1);
});

t.test('moving the clock past each next_check and ticking → enquiries → tendering → complete, one rev each', async (t) => {
  const clock = new ManualClock(T0);
  const jobs = await manualTimer(clock);
  const id = await insertTender(jobs.store, at(1), at(5));
  clock.set(at(1));
  t.equal(await jobs.timer.tick(), 1);
  t.match(await getTender(raw, id), { rev: 2, doc: { data: { status: 'active.tendering', next_check: at(5).toISOString() } } });
  clock.set(at(4));
  t.equal(await jobs.timer.tick(), 0);
  clock.set(at(6));
  t.equal(await jobs.timer.tick(), 1);
  const done = await getTender(raw, id);
  t.same([done.rev, done.doc.data.status, done.doc.data.next_check], [3, 'complete', undefined]);
  t.equal(await jobs.timer.tick(), 0, 'a completed object is no longer due');
});

t.test('one tick checks every due object, earliest first, and leaves the others', async (t) => {
  const clock = new ManualClock(T0);
  const jobs = await manualTimer(clock);
  const due = await Promise.all([1, 2, 3].map((h) => insertTender(jobs.store, at(h), at(10))));
  const later = await insertTender(jobs.store, at(8), at(10));
  clock.set(at(3));
  t.equal(await jobs.timer.tick(), 3);
  for (const id of due) t.equal((await getTender(raw, id)).doc.data.status, 'active.tendering');
  t.equal((await getTender(raw, later)).rev, 1);
});

t.test('a check that fails → the object stays due and the next tick applies it once', async (t) => {
  const clock = new ManualClock(T0);
  let failures = 1;
  const flaky: CheckRunner = async (session, stored, now) => {
    if (failures-- > 0) throw new Error('store hiccup');
    return tenderRunner(session, stored, now);
  };
  const jobs = await manualTimer(clock, { tenders: flaky });
  const id = await insertTender(jobs.store, at(1), at(5));
  clock.set(at(1));
  t.equal(await jobs.timer.tick(), 0);
  t.equal((await getTender(raw, id)).rev, 1);
  t.equal(await jobs.timer.tick(), 1);
  t.equal((await getTender(raw, id)).rev, 2);
});

t.test('two ticks called together → each due transition is applied once', async (t) => {
  const clock = new ManualClock(T0);
  const jobs = await manualTimer(clock);
  const id = await insertTender(jobs.store, at(1), at(5));
  clock.set(at(2));
  await Promise.all([jobs.timer.tick(), jobs.timer.tick()]);
  t.equal((await getTender(raw, id)).rev, 2);
});

t.test('a started timer wakes by itself for a next_check saved on this node, long before its poll', async (t) => {
  const jobs = await startJobs(config, raw, systemClock, pino({ level: 'silent' }), { registry: testRegistry });
  t.teardown(() => jobs.stop());
  const id = await insertTender(jobs.store, new Date(Date.now() + 150), new Date(Date.now() + 3_600_000));
  const after = await eventually(
    () => getTender(raw, id),
    (s) => s.rev === 2,
    5000,
  );
  t.equal(after.doc.data.status, 'active.tendering');
});
