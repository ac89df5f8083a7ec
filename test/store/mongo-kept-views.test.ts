/**
 * Kept views on MongoDB (docs/mongodb.md §Kept views on MongoDB): a node confirms a kept version through its
 * change stream without asking the store, and never serves it to a session that has seen a later change.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import type { Change, KeptVersion, Store, Stored } from '../../src/store/port';

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

const withDatabase = (url: string, name: string) => url.replace(/^(mongodb:\/\/[^/?]*)(\/[^?]*)?/, `$1/${name}`);

const INDEX = { isPublic: true, isTest: false, nextCheck: null };

const insert = (): Change => ({ op: 'insert', kind: 'tenders', id: randomUUID().replace(/-/g, ''), doc: { data: { n: 0 } }, index: INDEX });

const update = (stored: Stored): Change => ({
  op: 'update',
  kind: 'tenders',
  id: stored.id,
  expectedRev: stored.rev,
  doc: { data: { n: stored.rev } },
  index: INDEX,
});

/**
 * A kept version of `stored` that node `reader` vouches for: a store read confirms it, and a read that began before
 * the stream delivered the object's own last change is confirmed again by the next read.
 */
async function confirmedKept(reader: Store, stored: Stored): Promise<KeptVersion> {
  const kept: KeptVersion = { seq: stored.seq };
  for (let attempt = 0; attempt < 100; attempt++) {
    const before = kept.confirmed;
    await reader.session().getView('tenders', stored.id, kept);
    if (before !== undefined && kept.confirmed === before) return kept;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the reader never vouched for the kept version');
}

if (!url) {
  t.plan(0, 'MONGODB_URL (or a mongodb:// STORE_URL) not set');
} else {
  const name = `kept_${randomUUID().slice(0, 8)}`;
  let reader: Store;
  let writer: Store;
  t.before(async () => {
    [reader, writer] = await Promise.all([1, 2].map(() => openMongoStore(withDatabase(url, name), { feedFloors: { heartbeatMs: 20 } })));
  });
  t.teardown(async () => {
    await Promise.all([reader, writer].map((n) => n.close()));
    const admin = new MongoClient(url);
    await admin.db(name).dropDatabase();
    await admin.close();
  });

  t.test('a confirmed kept version is answered unchanged without a store read, however other objects change', async (t) => {
    const [stored] = await writer.session().commit([insert()]);
    const kept = await confirmedKept(reader, stored);
    const confirmation = kept.confirmed;
    for (let i = 0; i < 5; i++) await writer.session().commit([insert()]);
    t.equal(await reader.session().getView('tenders', stored.id, kept), 'unchanged');
    t.equal(kept.confirmed, confirmation, 'no store read confirmed it again');
  });

  t.test('a session that has seen a change on another node never gets the version before it', async (t) => {
    let [stored] = await writer.session().commit([insert()]);
    for (let round = 0; round < 20; round++) {
      const kept = await confirmedKept(reader, stored);
      const writing = writer.session();
      [stored] = await writing.commit([update(stored)]);
      const view = await reader.session(writing.token()).getView('tenders', stored.id, kept);
      t.not(view, 'unchanged', `round ${round}: the new version, at once`);
      if (view !== 'unchanged') t.equal(view?.seq, stored.seq);
    }
  });

  t.test('a session without a token gets the new version once the change stream delivers it', async (t) => {
    const [first] = await writer.session().commit([insert()]);
    const kept = await confirmedKept(reader, first);
    const [second] = await writer.session().commit([update(first)]);
    let view = await reader.session().getView('tenders', first.id, kept);
    for (let attempt = 0; attempt < 250 && view === 'unchanged'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = await reader.session().getView('tenders', first.id, kept);
    }
    t.not(view, 'unchanged');
    if (view !== 'unchanged') t.equal(view?.seq, second.seq);
  });

  t.test('an answer from a confirmed version moves the session to the time it was confirmed at', async (t) => {
    const [stored] = await writer.session().commit([insert()]);
    const kept = await confirmedKept(reader, stored);
    const session = reader.session();
    t.equal(await session.getView('tenders', stored.id, kept), 'unchanged');
    const { operationTime } = session.token();
    t.ok(operationTime, 'the token carries an operation time');
    // A reader on another node starting from that token sees the version the session saw, or a later one.
    t.equal((await writer.session(session.token()).get('tenders', stored.id))?.seq, stored.seq);
  });

  t.test('get: a document kept on one node gives way to a change made on another, for a session that saw it', async (t) => {
    let [stored] = await writer.session().commit([insert()]);
    for (let round = 0; round < 20; round++) {
      t.equal((await reader.session().get('tenders', stored.id))?.seq, stored.seq, `round ${round}: kept`);
      const writing = writer.session();
      [stored] = await writing.commit([update(stored)]);
      const read = await reader.session(writing.token()).get('tenders', stored.id);
      t.equal(read?.rev, stored.rev, `round ${round}: the new revision, at once`);
      t.same(read?.doc, stored.doc);
    }
  });

  t.test('get: each read of a kept document is a copy its caller may change', async (t) => {
    const [stored] = await reader.session().commit([insert()]);
    const first = await reader.session().get('tenders', stored.id);
    first!.doc.data.n = 'changed by the caller';
    t.same((await reader.session().get('tenders', stored.id))?.doc, stored.doc);
  });

  t.test('a collection dropped (or renamed away) voids every kept version and document of it', async (t) => {
    const [stored] = await writer.session().commit([insert()]);
    const kept = await confirmedKept(reader, stored);
    t.ok(await reader.session().get('tenders', stored.id), 'the document kept');
    const admin = new MongoClient(url);
    await admin.db(name).collection('tenders').drop();
    await admin.close();
    let view = await reader.session().getView('tenders', stored.id, kept);
    for (let attempt = 0; attempt < 250 && view === 'unchanged'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = await reader.session().getView('tenders', stored.id, kept);
    }
    t.equal(view, null, 'once the stream delivers the drop, the view is read again: gone');
    t.equal(await reader.session().get('tenders', stored.id), null, 'and so is the document');
  });
}
