import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { CheckRunner } from '../../src/domain/core/check-runner';
import { updateOf } from '../../src/domain/save-rules';
import { runCheck } from '../../src/jobs/run-check';
import { openStore } from '../../src/store/open-store';
import { StoreConflict, type Store } from '../../src/store/port';
import { ManualClock } from '../../src/time/clock';
import { getTender, insertTender, newId, tenderRunner, testRegistry } from './fixtures/tenders';

const T0 = new Date('2026-10-05T12:00:00+03:00');
const HOUR = 3_600_000;
let store: Store;
let dir: string;

t.beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'run-check-'));
  store = await openStore(`sqlite:${join(dir, 'registry.db')}`);
});
t.afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

t.test('a due object → applied: the transition is committed at rev 2 with the next next_check', async (t) => {
  const id = await insertTender(store, new Date(T0.getTime() + HOUR), new Date(T0.getTime() + 5 * HOUR));
  const result = await runCheck(store, 'tenders', id, new ManualClock(new Date(T0.getTime() + HOUR)), testRegistry);
  t.same(result, { outcome: 'applied', dueAt: T0.getTime() + HOUR });
  const after = await getTender(store, id);
  t.equal(after.rev, 2);
  t.equal(after.doc.data.status, 'active.tendering');
  t.equal(after.doc.data.next_check, new Date(T0.getTime() + 5 * HOUR).toISOString());
});

t.test('an object not yet due → not-due and nothing is written', async (t) => {
  const id = await insertTender(store, new Date(T0.getTime() + HOUR), new Date(T0.getTime() + 5 * HOUR));
  const result = await runCheck(store, 'tenders', id, new ManualClock(T0), testRegistry);
  t.equal(result.outcome, 'not-due');
  t.equal((await getTender(store, id)).rev, 1);
});

t.test('the same job run twice → the second run is not-due and the object stays at rev 2', async (t) => {
  const id = await insertTender(store, new Date(T0.getTime() + HOUR), new Date(T0.getTime() + 5 * HOUR));
  const clock = new ManualClock(new Date(T0.getTime() + 2 * HOUR));
  await runCheck(store, 'tenders', id, clock, testRegistry);
  t.equal((await runCheck(store, 'tenders', id, clock, testRegistry)).outcome, 'not-due');
  t.equal((await getTender(store, id)).rev, 2);
});

t.test('a job running days late applies one transition per run, each from the state it read', async (t) => {
  const id = await insertTender(store, new Date(T0.getTime() + HOUR), new Date(T0.getTime() + 5 * HOUR));
  const clock = new ManualClock(new Date(T0.getTime() + 72 * HOUR));
  t.equal((await runCheck(store, 'tenders', id, clock, testRegistry)).outcome, 'applied');
  t.equal((await runCheck(store, 'tenders', id, clock, testRegistry)).outcome, 'applied');
  const after = await getTender(store, id);
  t.same([after.rev, after.doc.data.status, after.doc.data.next_check], [3, 'complete', undefined]);
});

t.test('an unknown object → missing, without an error', async (t) => {
  t.same(await runCheck(store, 'tenders', newId(), new ManualClock(T0), testRegistry), { outcome: 'missing', dueAt: null });
});

t.test('a kind without a runner → unchanged, and the object is left as it was', async (t) => {
  const id = await insertTender(store, T0, new Date(T0.getTime() + HOUR));
  t.equal((await runCheck(store, 'tenders', id, new ManualClock(T0), {})).outcome, 'unchanged');
  t.equal((await getTender(store, id)).rev, 1);
});

t.test('the object changed between load and commit → StoreConflict thrown for a retry, and the other write stands', async (t) => {
  const id = await insertTender(store, T0, new Date(T0.getTime() + HOUR));
  const racing = {
    tenders: (async (session, stored, now) => {
      const current = await getTender(store, id);
      await store.session().commit([updateOf(current, { ...current.doc, data: { ...current.doc.data, title: 'edited' } })]);
      return tenderRunner(session, stored, now);
    }) satisfies CheckRunner,
  };
  const err = await runCheck(store, 'tenders', id, new ManualClock(T0), racing).catch((e: unknown) => e);
  t.type(err, StoreConflict, 'the store conflict, which the API answers 409');
  const after = await getTender(store, id);
  t.same([after.rev, after.doc.data.status, after.doc.data.title], [2, 'active.enquiries', 'edited']);
  t.equal((await runCheck(store, 'tenders', id, new ManualClock(T0), testRegistry)).outcome, 'applied');
});
