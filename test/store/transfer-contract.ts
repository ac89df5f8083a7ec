import type { Test } from 'tap';
import type { Change, StoredDoc, Kind, Store, StoredRecord } from '../../src/store/port';

const index = (over: Partial<Change['index']> = {}) => ({ isPublic: true, isTest: false, nextCheck: null, ...over });
let n = 0;
const freshId = () => (Date.now().toString(16) + (++n).toString(16).padStart(8, '0')).padStart(32, '0').slice(-32);

/** Every record of `kind`, read out in pages of `page`. */
async function exportAll(store: Store, kind: Kind, page = 2): Promise<StoredRecord[]> {
  const all: StoredRecord[] = [];
  for (;;) {
    const records = await store.transfer.exportRecords(kind, all[all.length - 1]?.seq, page);
    all.push(...records);
    if (records.length < page) return all;
  }
}

/** A record as `exportRecords` gives it, at `seq`. */
const aRecord = (kind: Kind, seq: number, over: Partial<StoredRecord> = {}): StoredRecord => {
  const id = freshId();
  return {
    kind,
    id,
    rev: 1,
    seq,
    doc: { data: { id, title: 'copied' }, secrets: { tokenHash: 'h' } },
    index: index(),
    revisions: [{ seq, author: 'broker', back: [] }],
    ...over,
  };
};

/** A position in the past, in microsecond steps as the stores take them (docs/platform.md §Feeds). */
const pastPosition = (secondsAgo: number, micros = 0) => Math.floor(Date.now() / 1000) - secondsAgo + micros / 1e6;

/**
 * `Store.transfer` (port.ts `StoreTransfer`): what a copy of a store needs of both engines. `open` gives a fresh,
 * empty store; the test closes what it opens.
 */
export function transferContract(t: Test, open: () => Promise<Store>) {
  const two = async (t: Test) => {
    const [from, to] = [await open(), await open()];
    t.teardown(async () => {
      await from.close();
      await to.close();
    });
    return { from, to };
  };

  t.test('transfer: every object read out in position order and put back with its revision, position and index', async (t) => {
    const { from, to } = await two(t);
    const s = from.session();
    const doc = (id: string, more: StoredDoc = {}): StoredDoc => ({
      data: { id, ...more },
      config: { restricted: true },
      secrets: { tokenHash: 'h', transfer: 't' },
    });
    const [a, b, c] = [freshId(), freshId(), freshId()];
    await s.commit([
      { op: 'insert', kind: 'tenders', id: a, doc: doc(a, { amount: 500, nested: { 2: 'x', k: [1.5, null] } }), index: index() },
    ]);
    await s.commit([
      { op: 'insert', kind: 'tenders', id: b, doc: doc(b), index: index({ isPublic: false, nextCheck: 1_800_000_000_000 }) },
    ]);
    await s.commit([{ op: 'insert', kind: 'plans', id: c, doc: doc(c), index: index({ isTest: true }) }]);
    await s.commit([{ op: 'update', kind: 'tenders', id: a, expectedRev: 1, doc: doc(a, { v: 2 }), index: index({ nextCheck: 5 }) }]);

    const tenders = await exportAll(from, 'tenders');
    t.same(
      tenders.map((r) => [r.id, r.rev, r.index]),
      [
        [b, 1, index({ isPublic: false, nextCheck: 1_800_000_000_000 })],
        [a, 2, index({ nextCheck: 5 })],
      ],
      'drafts too, in position order',
    );
    t.ok(tenders[0].seq < tenders[1].seq);
    t.same(await from.transfer.exportRecords('tenders', tenders[0].seq, 10), [tenders[1]], 'after a position');
    const plans = await exportAll(from, 'plans');
    t.equal(await to.transfer.importRecords([...tenders, ...plans]), 3);
    t.equal(await to.transfer.importRecords([...tenders, ...plans]), 0, 'a second put stores nothing');
    const counts = {
      tenders: 2,
      frameworks: 0,
      submissions: 0,
      qualifications: 0,
      agreements: 0,
      contracts: 0,
      plans: 1,
      transfers: 0,
      blobs: 0,
    };
    t.same(await to.transfer.count(), counts, 'counted');
    t.same(await exportAll(to, 'tenders'), tenders);
    t.same(await exportAll(to, 'plans'), plans);
    const copied = await to.session().get('tenders', a);
    t.same([copied?.rev, copied?.seq, copied?.doc], [2, tenders[1].seq, tenders[1].doc]);
    t.same(
      (await to.session().feed({ kind: 'tenders', descending: false, limit: 10, mode: 'live' })).map((r) => [r.id, r.seq]),
      [[a, tenders[1].seq]],
      'the feed lists what it listed, at the same position',
    );
    t.same(await to.due(10, 10), [{ kind: 'tenders', id: a, nextCheck: 5 }], 'next_check as it was');
    t.equal(tenders[1].revisions.length, 2, 'an object goes with its history');
    t.same(await to.session().history('tenders', a), await from.session().history('tenders', a), 'and its history is the same there');
  });

  t.test('transfer: a record at a later revision replaces the object, one at the same or an earlier one does not', async (t) => {
    const { to } = await two(t);
    const first = aRecord('tenders', pastPosition(100));
    const later = {
      ...first,
      rev: 3,
      seq: pastPosition(50),
      doc: { data: { id: first.id, v: 3 } },
      revisions: [...first.revisions, { seq: pastPosition(50), author: 'broker', back: [] }],
    };
    t.equal(await to.transfer.importRecords([first]), 1);
    t.equal(await to.transfer.importRecords([later]), 1);
    t.equal(await to.transfer.importRecords([first, { ...later, doc: { data: { v: 'same rev' } } }]), 0);
    t.same(await to.transfer.exportRecords('tenders', undefined, 10), [later]);
  });

  t.test('transfer: a position another object of the kind holds is a conflict; one held in another kind is not', async (t) => {
    const { to } = await two(t);
    const position = pastPosition(100, 7);
    await to.transfer.importRecords([aRecord('tenders', position)]);
    await t.rejects(to.transfer.importRecords([aRecord('tenders', position)]), { name: 'StoreConflict' });
    t.equal(await to.transfer.importRecords([aRecord('plans', position)]), 1);
  });

  t.test('transfer: commits after a put take later positions, and an object put is updated at its revision', async (t) => {
    const { to } = await two(t);
    const record = aRecord('tenders', pastPosition(3600), { rev: 4 });
    await to.transfer.importRecords([record]);
    const [updated] = await to
      .session()
      .commit([{ op: 'update', kind: 'tenders', id: record.id, expectedRev: 4, doc: { data: { id: record.id, v: 5 } }, index: index() }]);
    const [inserted] = await to.session().commit([{ op: 'insert', kind: 'tenders', id: freshId(), doc: { data: {} }, index: index() }]);
    t.equal(updated.rev, 5);
    t.ok(updated.seq > record.seq && inserted.seq > record.seq);
  });

  t.test('transfer: blobs read out in id order and put once', async (t) => {
    const { from, to } = await two(t);
    const blobs = ['b3', 'b1', 'b2'].map((id) => ({ id, contentType: 'text/plain', data: Buffer.from(`file ${id}`) }));
    for (const blob of blobs) await from.session().putBlob(blob);
    const first = await from.transfer.exportBlobs(undefined, 2);
    const rest = await from.transfer.exportBlobs(first[1].id, 2);
    t.same(
      [...first, ...rest].map((b) => b.id),
      ['b1', 'b2', 'b3'],
    );
    t.equal(await to.transfer.importBlobs(first), 2);
    t.equal(await to.transfer.importBlobs([...first, ...rest]), 1);
    t.same(await to.session().getBlob('b3'), blobs[0]);
    t.same(await to.transfer.exportBlobs('b3', 2), []);
    t.equal((await to.transfer.count()).blobs, 3);
  });

  t.test('transfer: counters are raised to what they gave out, never lowered', async (t) => {
    const { from, to } = await two(t);
    for (let i = 0; i < 3; i++) await from.session().nextCounter('tenderID:2026-11-27');
    await from.session().nextCounter('prettyID');
    const counters = await from.transfer.exportCounters();
    t.same(counters, [
      { name: 'prettyID', value: 1 },
      { name: 'tenderID:2026-11-27', value: 3 },
    ]);
    t.equal(await to.transfer.importCounters(counters), 2);
    t.equal(await to.transfer.importCounters([{ name: 'prettyID', value: 0 }, ...counters]), 0);
    t.equal(await to.session().nextCounter('tenderID:2026-11-27'), 4);
  });
}
