/** The change watch's rules (docs/mongodb.md §Kept views on MongoDB) against a stream the test feeds by hand. */
import t, { type Test } from 'tap';
import { EventEmitter } from 'node:events';
import { Timestamp, type Db } from 'mongodb';
import { ChangeWatch } from '../../../src/store/mongo/change-watch';

/** A change stream whose events the test pushes. */
class FakeStream extends EventEmitter {
  readonly queue: Record<string, unknown>[] = [];
  tryNext = () => Promise.resolve(this.queue.shift() ?? null);
  bufferedCount = () => this.queue.length;
  close = () => Promise.resolve();
}

const at = (i: number) => new Timestamp({ t: 1_800_000_000, i });

async function openWatch(t: Test) {
  const stream = new FakeStream();
  const watch = new ChangeWatch({ watch: () => stream } as unknown as Db, { pollMs: 1 });
  watch.start();
  stream.emit('resumeTokenChanged');
  t.teardown(() => watch.stop());
  /** Delivers an event and waits until the watch has taken it. */
  const deliver = async (id: string, written: number | { seq?: number; rev?: number }, time: Timestamp, txnNumber?: number) => {
    stream.queue.push({
      ns: { coll: 'tenders' },
      documentKey: { _id: id },
      clusterTime: time,
      updateDescription: { updatedFields: typeof written === 'number' ? { seq: written } : written },
      txnNumber,
    });
    while (stream.queue.length) await new Promise((resolve) => setTimeout(resolve, 2));
    await new Promise((resolve) => setTimeout(resolve, 2));
  };
  return { watch, deliver };
}

t.test('a read that saw a time before a change already delivered vouches for nothing (a secondary behind the stream)', async (t) => {
  const { watch, deliver } = await openWatch(t);
  await deliver('x', 2, at(20));
  const confirmed = watch.confirm(watch.mark(), at(10)); // the read saw the object at seq 1, as of time 10
  t.notOk(watch.isCurrent('tenders', 'x', { seq: 1 }, confirmed, undefined));
  const later = watch.confirm(watch.mark(), at(30)); // a read as of time 30 that saw a newer version, not yet delivered
  t.ok(watch.isCurrent('tenders', 'x', { seq: 3 }, later, undefined));
});

t.test('a change delivered after the read began voids the version the read found, but not the version it made', async (t) => {
  const { watch, deliver } = await openWatch(t);
  const confirmed = watch.confirm(watch.mark(), at(10));
  await deliver('x', 5, at(11));
  t.notOk(watch.isCurrent('tenders', 'x', { seq: 4 }, confirmed, undefined), 'the older version');
  t.ok(watch.isCurrent('tenders', 'x', { seq: 5 }, confirmed, undefined), 'its own change, delivered late');
  t.ok(watch.isCurrent('tenders', 'y', { seq: 1 }, confirmed, undefined), 'another object');
});

t.test(
  "a session that has seen a time the stream has not delivered reads the store, until a transaction's last change is past",
  async (t) => {
    const { watch, deliver } = await openWatch(t);
    const confirmed = watch.confirm(watch.mark(), at(10));
    t.notOk(watch.isCurrent('tenders', 'y', { seq: 1 }, confirmed, at(12)), 'nothing delivered up to 12');
    await deliver('z', 1, at(12), 7);
    t.notOk(watch.isCurrent('tenders', 'y', { seq: 1 }, confirmed, at(12)), "a transaction's change: others of it may follow at 12");
    await deliver('w', 1, at(13));
    t.ok(watch.isCurrent('tenders', 'y', { seq: 1 }, confirmed, at(12)), 'a later change: everything at 12 was delivered');
    t.ok(watch.isCurrent('tenders', 'y', { seq: 1 }, confirmed, at(9)), 'a session behind the read');
  },
);

t.test("this node's own commit voids the other versions at once and vouches for its own", async (t) => {
  const { watch } = await openWatch(t);
  const confirmed = watch.confirm(watch.mark(), at(10));
  const mine = watch.changedHere('tenders', 'x', { seq: 6, rev: 6 }, at(11));
  t.notOk(watch.isCurrent('tenders', 'x', { seq: 5 }, confirmed, undefined));
  t.ok(watch.isCurrent('tenders', 'x', { seq: 6 }, mine, at(11)));
});

t.test('a hidden change (a new revision at the same position) voids the kept document, and a kept view is read again', async (t) => {
  const { watch, deliver } = await openWatch(t);
  const confirmed = watch.confirm(watch.mark(), at(10));
  await deliver('x', { seq: 4, rev: 2 }, at(11));
  await deliver('x', { rev: 3 }, at(12));
  t.notOk(watch.isCurrent('tenders', 'x', { rev: 2 }, confirmed, undefined), 'the document at the revision before');
  t.ok(watch.isCurrent('tenders', 'x', { rev: 3 }, confirmed, undefined), 'the document the change made');
  t.notOk(watch.isCurrent('tenders', 'x', { seq: 4 }, confirmed, undefined), 'the view at that position: the store is asked');
});

t.test('a stream that fails voids every confirmation', async (t) => {
  const { watch } = await openWatch(t);
  const confirmed = watch.confirm(watch.mark(), at(10));
  await watch.stop();
  t.notOk(watch.isCurrent('tenders', 'x', { seq: 1 }, confirmed, undefined));
  t.equal(watch.mark(), null, 'and confirms nothing while it is not open');
});
