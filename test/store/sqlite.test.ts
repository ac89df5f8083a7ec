import t from 'tap';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Change, KeptVersion } from '../../src/store/port';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';

const run = promisify(execFile);
import { storeContract } from './contract';

const root = mkdtempSync(join(tmpdir(), 'store-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
/** A new database file in this file's temporary folder, removed with it. */
const newPath = () => join(mkdtempSync(join(root, 'db-')), 'r.db');

const paths = new WeakMap<object, string>();
storeContract(t, async (options = {}) => {
  const path = options.sharing ? paths.get(options.sharing)! : newPath();
  const store = openSqliteStore(path, { clock: options.clock });
  paths.set(store, path);
  return store;
});

t.test('feed and get read documents back exactly as stored', async (t) => {
  const store = openSqliteStore(newPath());
  t.teardown(() => store.close());
  const data = {
    id: 'a1',
    dateModified: '2026-01-01T00:00:00+02:00',
    status: null,
    title: 'Закупівля "x"',
    amount: 1.5,
    nested: { k: [1, { z: true }] },
  };
  const config = { restricted: true };
  await store.session().commit([
    {
      op: 'insert',
      kind: 'tenders',
      id: 'a1',
      doc: { data, config, secrets: { tokenHash: 'h' } },
      index: { isPublic: true, isTest: false, nextCheck: null },
    },
  ]);
  const [whole] = await store.session().feed({ kind: 'tenders', descending: false, limit: 10, mode: 'live' });
  t.strictSame(whole.doc, { data, config, secrets: { tokenHash: 'h' } });
  t.strictSame((await store.session().get('tenders', 'a1'))!.doc, whole.doc);
});

t.test('a read of an object whose commit waits for its batch applies the batch first, so an edit starts from it', async (t) => {
  const store = openSqliteStore(newPath());
  t.teardown(() => store.close());
  const index = { isPublic: true, isTest: false, nextCheck: null };
  const insert = (id: string): Change => ({ op: 'insert', kind: 'tenders', id, doc: { data: { id, v: 1 } }, index });
  await store.session().commit([insert('b1'), insert('b2')]);
  const update = (id: string): Change => ({ op: 'update', kind: 'tenders', id, expectedRev: 1, doc: { data: { id, v: 2 } }, index });
  const waiting = store.session().commit([update('b1')]);
  const other = store.session();
  t.equal((await other.get('tenders', 'b2'))?.rev, 1, 'another object');
  t.equal((await other.get('tenders', 'b1'))?.rev, 2, 'the object the waiting commit changes');
  t.equal((await waiting)[0].rev, 2);
  const waitingToo = store.session().commit([{ ...update('b2') }]);
  t.same(
    (await store.session().getMany('tenders', ['b2'])).map((s) => s.doc.data.v),
    [2],
    'getMany too',
  );
  await waitingToo;
});

/**
 * Kept versions are confirmed without a query while nothing has been committed since (this process's commits and
 * `PRAGMA data_version` for every other connection's): each test commits some other way and expects the change.
 */
t.test('kept versions and commits made elsewhere', async (t) => {
  const path = newPath();
  const store = openSqliteStore(path);
  const other = openSqliteStore(path);
  t.teardown(async () => {
    await store.close();
    await other.close();
  });
  const index = { isPublic: true, isTest: false, nextCheck: null };
  const id = 'a'.repeat(32);
  await store.session().commit([{ op: 'insert', kind: 'frameworks', id, doc: { data: { n: 0 } }, index }]);
  const current = async () => (await store.session().get('frameworks', id))!;
  /** A version kept and confirmed once, as a reader keeps its rendering. */
  const keptNow = async () => {
    const kept = { seq: (await current()).seq };
    t.equal(await store.session().getView('frameworks', id, kept), 'unchanged');
    return kept;
  };
  const update = (rev: number, n: number): Change => ({
    op: 'update',
    kind: 'frameworks',
    id,
    expectedRev: rev,
    doc: { data: { n } },
    index,
  });
  const viewed = async (kept: KeptVersion) => {
    const view = await store.session().getView('frameworks', id, kept);
    return view === 'unchanged' ? 'unchanged' : view && 'json' in view ? JSON.parse(view.json.toString()).data.n : 'stored';
  };

  t.test('a view read whole comes confirmed: kept so, it is unchanged until a commit elsewhere', async (t) => {
    const view = await store.session().getView('frameworks', id);
    if (!view || view === 'unchanged') return t.fail('a view');
    const kept = { seq: view.seq, confirmed: view.confirmed };
    t.ok(kept.confirmed, 'the mark taken before the read');
    t.equal(await viewed(kept), 'unchanged');
    const { rev, doc } = await current();
    await other.session().commit([update(rev, doc.data.n + 1)]);
    t.equal(await viewed(kept), doc.data.n + 1);
  });

  t.test('a commit through another connection in this process', async (t) => {
    const kept = await keptNow();
    const { rev, doc } = await current();
    await other.session().commit([update(rev, doc.data.n + 1)]);
    t.equal(await viewed(kept), doc.data.n + 1);
  });

  t.test('a commit by another process', async (t) => {
    const kept = await keptNow();
    const before = (await current()).doc.data.n;
    await run(process.execPath, ['--import=tsx', join(__dirname, 'fixtures/sqlite-writer.ts'), path, '1', id]);
    t.equal(await viewed(kept), before + 1);
  });

  t.test('a refused commit here leaves the version current, and the next commit is seen', async (t) => {
    const kept = await keptNow();
    const { rev, doc } = await current();
    await t.rejects(store.session().commit([update(rev - 1, -1)]), { name: 'StoreConflict' });
    t.equal(await viewed(kept), 'unchanged');
    t.equal(await viewed(kept), 'unchanged');
    await store.session().commit([update(rev, doc.data.n + 1)]);
    t.equal(await viewed(kept), doc.data.n + 1);
  });

  t.test('a transaction rolled back by another connection changes nothing; its next commit is seen', async (t) => {
    const raw = new Database(path);
    t.teardown(() => raw.close());
    const kept = await keptNow();
    const change = raw.prepare('UPDATE objects SET seq = seq + 1000, doc = jsonb(\'{"data":{"n":-1}}\') WHERE id = ?');
    raw.exec('BEGIN IMMEDIATE');
    change.run(id);
    raw.exec('ROLLBACK');
    t.equal(await viewed(kept), 'unchanged');
    change.run(id);
    t.equal(await viewed(kept), -1);
  });

  t.test('interleaved commits here and elsewhere, refused or not: every read is of the latest version', async (t) => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    let kept: KeptVersion = { seq: 0 };
    for (let i = 0; i < 300; i++) {
      const { rev } = await current();
      const roll = random();
      const writer = roll < 0.5 ? store : other;
      if (roll < 0.6) await writer.session().commit([update(rev, i)]);
      else if (roll < 0.7) await t.rejects(writer.session().commit([update(rev - 1, -1)]));
      const latest = await other.session().get('frameworks', id);
      const view = await store.session().getView('frameworks', id, kept);
      if (view === 'unchanged') {
        if (kept.seq !== latest!.seq) t.fail(`read ${i}: kept seq ${kept.seq} served, latest ${latest!.seq}`);
      } else {
        t.equal(view?.seq, latest!.seq, `read ${i}`);
        kept = { seq: view!.seq };
      }
    }
    t.pass('300 reads');
  });
});

t.test('the stale-reads snapshot (TEST_STALE_READS) still answers kept versions from the snapshot', async (t) => {
  const path = newPath();
  const writer = openSqliteStore(path);
  const index = { isPublic: true, isTest: false, nextCheck: null };
  const id = 'b'.repeat(32);
  const [first] = await writer.session().commit([{ op: 'insert', kind: 'frameworks', id, doc: { data: { n: 0 } }, index }]);
  const stale = openSqliteStore(path, { staleReadsMs: 50 });
  t.teardown(async () => {
    await stale.close();
    await writer.close();
  });
  const kept = { seq: first.seq };
  t.equal(await stale.session().getView('frameworks', id, kept), 'unchanged');
  const [second] = await writer
    .session()
    .commit([{ op: 'update', kind: 'frameworks', id, expectedRev: 1, doc: { data: { n: 1 } }, index }]);
  t.equal(await stale.session().getView('frameworks', id, kept), 'unchanged', 'the snapshot is older than the commit');
  await new Promise((resolve) => setTimeout(resolve, 120));
  const after = await stale.session().getView('frameworks', id, kept);
  t.equal(after !== 'unchanged' && after?.seq, second.seq, 'the refreshed snapshot has it');
});
