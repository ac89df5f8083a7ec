import type { Test } from 'tap';
import type { Change, StoredDoc, FeedQuery, Kind, ObjectView, Store, StoreSession } from '../../src/store/port';
import { transferContract } from './transfer-contract';

const index = (over: Partial<Change['index']> = {}) => ({ isPublic: true, isTest: false, nextCheck: null, ...over });
let n = 0;
const freshId = () => (Date.now().toString(16) + (++n).toString(16).padStart(8, '0')).padStart(32, '0').slice(-32);
const insert = (kind: Kind, doc: StoredDoc = {}, over: Partial<Change['index']> = {}): Change => {
  const id = freshId();
  return { op: 'insert', kind, id, doc: { data: { id, ...doc } }, index: index(over) };
};

/**
 * Data JSON.stringify writes in every way it can: escapes, a lone surrogate, numbers, integer-like keys it puts
 * first. As stored: MongoDB keeps strings as UTF-8, so the lone surrogate comes back replaced.
 */
const AWKWARD_DATA = {
  status: null,
  title: 'Закупівля "x" \\ \n\t\u0001 \u2028 😀 \ud800',
  amounts: [1.5, 0, -2, 1e21, 1e-7, 12345678901234567000],
  nested: { 2: 'two', b: { k: [true, false, null, {}] }, 1: 'one' },
};

/** `count` objects, each in its own commit (so in this order in feeds); their ids. */
async function insertOneByOne(session: StoreSession, kind: Kind, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const change = insert(kind, { i });
    ids.push(change.id);
    await session.commit([change]);
  }
  return ids;
}

export interface OpenOptions {
  /** The wall clock (epoch ms) the store's feed positions follow. */
  clock?: () => number;
  /** Another node on the same data as this store, instead of a fresh, empty store. */
  sharing?: Store;
}

/**
 * What every store adapter must do, in the port's own words. Run by sqlite.test.ts always and by
 * mongo.test.ts when a MongoDB URL is given. `open` returns a fresh, empty store each time unless told to share.
 */
export function storeContract(t: Test, open: (options?: OpenOptions) => Promise<Store>) {
  let store: Store;
  t.beforeEach(async () => {
    store = await open();
  });
  t.afterEach(async () => {
    await store.close();
  });

  t.test('an inserted object is read back with rev 1 and its document', async (t) => {
    const s = store.session();
    const change = insert('tenders', { title: 'a' });
    const [saved] = await s.commit([change]);
    t.equal(saved.rev, 1);
    const got = await store.session().get('tenders', change.id);
    t.same(got?.doc, change.doc);
    t.equal(got?.rev, 1);
  });

  t.test('an unknown id reads as null', async (t) => {
    t.equal(await store.session().get('frameworks', 'f'.repeat(32)), null);
  });

  t.test('an update with the revision read bumps rev and seq', async (t) => {
    const s = store.session();
    const change = insert('tenders');
    const [first] = await s.commit([change]);
    const [second] = await s.commit([
      { op: 'update', kind: 'tenders', id: change.id, expectedRev: 1, doc: { data: { id: change.id, x: 2 } }, index: index() },
    ]);
    t.equal(second.rev, 2);
    t.ok(second.seq > first.seq);
    t.same((await s.get('tenders', change.id))?.doc.data.x, 2);
  });

  t.test('getView: unchanged at the known seq, the new version after a commit, null for an unknown id', async (t) => {
    const s = store.session();
    const change = insert('tenders', { v: 1 });
    const [first] = await s.commit([change]);
    t.equal(await store.session().getView('tenders', change.id, { seq: first.seq }), 'unchanged');
    const older = await store.session().getView('tenders', change.id, { seq: first.seq - 1 });
    t.equal(older !== 'unchanged' && 'json' in older! && older.json.toString(), JSON.stringify(change.doc), 'another seq reads the view');
    const [second] = await s.commit([
      { op: 'update', kind: 'tenders', id: change.id, expectedRev: 1, doc: { data: { id: change.id, v: 2 } }, index: index() },
    ]);
    const after = await store.session().getView('tenders', change.id, { seq: first.seq });
    t.equal(after !== 'unchanged' && after?.seq, second.seq);
    t.equal(after !== 'unchanged' && 'json' in after! && JSON.parse(after.json.toString()).data.v, 2);
    t.equal(await store.session().getView('tenders', 'f'.repeat(32), { seq: first.seq }), null);
    t.equal(await store.session().getView('tenders', 'f'.repeat(32)), null);
  });

  t.test('a hidden change keeps its object where it is in every feed, bumps rev, stays revision-checked', async (t) => {
    const s = store.session();
    const change = insert('tenders', { v: 1 });
    const [first] = await s.commit([change]);
    const [later] = await s.commit([insert('tenders')]);
    const hidden = (expectedRev: number, sealed: number): Change => ({
      op: 'update',
      kind: 'tenders',
      id: change.id,
      expectedRev,
      doc: { ...change.doc, sealed },
      index: index(),
      keepsPosition: first.seq,
    });
    const [second] = await s.commit([hidden(1, 1)]);
    t.equal(second.rev, 2);
    t.equal(second.seq, first.seq, 'the position stays');
    const reader = store.session();
    t.same((await reader.get('tenders', change.id))?.doc.sealed, 1, 'the hidden member is stored');
    t.equal((await reader.get('tenders', change.id))?.seq, first.seq);
    t.same(
      (await reader.feed({ kind: 'tenders', offset: later.seq, descending: false, limit: 10, mode: 'all' })).map((o) => o.id),
      [],
      'nothing is listed again after the last position a crawler holds',
    );
    t.equal(await reader.getView('tenders', change.id, { seq: first.seq }), 'unchanged', 'the view is the one kept');
    await t.rejects(s.commit([hidden(1, 2)]), { name: 'StoreConflict' }, 'a stale revision is a conflict');
    const [third] = await s.commit([hidden(2, 3), insert('tenders')]);
    t.equal(third.seq, first.seq, 'also beside another change in one commit');
    t.same((await store.session().get('tenders', change.id))?.doc.sealed, 3);
  });

  t.test('history: one revision per visible commit, oldest first, with its author and way back, none for a hidden change', async (t) => {
    const s = store.session(undefined, 'broker1');
    const change = insert('tenders', { v: 1 });
    const [first] = await s.commit([change]);
    const back = [{ op: 'replace' as const, path: '/data/v', value: 1 }];
    const update = (expectedRev: number, doc: StoredDoc, extra: Partial<Change> = {}): Change => ({
      op: 'update',
      kind: 'tenders',
      id: change.id,
      expectedRev,
      doc,
      index: index(),
      ...extra,
    });
    const [second] = await store.session(undefined, 'chronograph').commit([update(1, { data: { id: change.id, v: 2 } }, { back })]);
    await s.commit([update(2, { data: { id: change.id, v: 2 }, sealed: 1 }, { keepsPosition: second.seq })]);
    const [third] = await s.commit([
      update(3, { data: { id: change.id, v: 3 } }, { back: [{ op: 'replace', path: '/data/v', value: 2 }] }),
      insert('tenders'),
    ]);
    const history = await store.session().history('tenders', change.id);
    t.same(
      history.map((r) => [r.seq, r.author, r.back]),
      [
        [first.seq, 'broker1', []],
        [second.seq, 'chronograph', back],
        [third.seq, 'broker1', [{ op: 'replace', path: '/data/v', value: 2 }]],
      ],
    );
    t.same(await store.session().history('tenders', 'f'.repeat(32)), [], 'an unknown object has none');
  });

  t.test('getView: a kept version found current gives way to the next commit', async (t) => {
    const s = store.session();
    const change = insert('tenders', { v: 1 });
    const [first] = await s.commit([change]);
    const kept = { seq: first.seq };
    t.equal(await store.session().getView('tenders', change.id, kept), 'unchanged');
    t.equal(await store.session().getView('tenders', change.id, kept), 'unchanged', 'again, nothing committed');
    const [second] = await s.commit([
      { op: 'update', kind: 'tenders', id: change.id, expectedRev: 1, doc: { data: { id: change.id, v: 2 } }, index: index() },
    ]);
    const after = await store.session().getView('tenders', change.id, kept);
    t.equal(after !== 'unchanged' && after?.seq, second.seq);
  });

  t.test('getView: an unrestricted object as JSON of {data, config} exactly as JSON.stringify writes them', async (t) => {
    const s = store.session();
    const data = AWKWARD_DATA;
    const configs = [
      undefined,
      null,
      {},
      { restricted: false },
      { restricted: null },
      { restricted: 0 },
      { restricted: 1 },
      { restricted: 'true' },
      { restricted: [true] },
    ];
    for (const config of configs) {
      const change = insert('tenders', data);
      const doc: StoredDoc = { ...change.doc, dateCreated: '2026-01-01T00:00:00+02:00', secrets: { tokenHash: 'h' } };
      if (config !== undefined) doc.config = config;
      const [saved] = await s.commit([{ ...change, doc }]);
      const view = await store.session().getView('tenders', change.id);
      const stored = (await store.session().get('tenders', change.id))!.doc;
      t.equal(view !== 'unchanged' && view?.seq, saved.seq);
      t.equal(
        view !== 'unchanged' && 'json' in view! ? view.json.toString() : 'stored',
        JSON.stringify({ data: stored.data, config: stored.config }),
        `config ${JSON.stringify(config)}`,
      );
    }
    const bare = { op: 'insert', kind: 'tenders', id: freshId(), doc: { secrets: { tokenHash: 'h' } }, index: index() } as const;
    await s.commit([bare]);
    const view = await store.session().getView('tenders', bare.id);
    t.equal(view !== 'unchanged' && 'json' in view! && view.json.toString(), '{}', 'neither data nor config: an empty object');
  });

  t.test('getView: a restricted object as stored, for the domain to mask', async (t) => {
    const s = store.session();
    const change = insert('tenders', { title: 'a' });
    change.doc.config = { restricted: true, other: 1 };
    change.doc.secrets = { tokenHash: 'h' };
    const [saved] = await s.commit([change]);
    const view = await store.session().getView('tenders', change.id);
    t.ok(view !== 'unchanged' && view && !('json' in view));
    // `confirmed` is the store's own mark (port.ts ObjectView), set when its change watch has caught up, or not
    const { confirmed: _confirmed, ...stored } = view as ObjectView;
    t.same(stored, { kind: 'tenders', id: change.id, rev: 1, seq: saved.seq, doc: change.doc });
    t.equal(await store.session().getView('tenders', change.id, { seq: saved.seq }), 'unchanged');
  });

  t.test('an update with a stale revision is a conflict and writes nothing', async (t) => {
    const s = store.session();
    const change = insert('tenders', { v: 1 });
    await s.commit([change]);
    const update = (v: number): Change => ({
      op: 'update',
      kind: 'tenders',
      id: change.id,
      expectedRev: 1,
      doc: { data: { id: change.id, v } },
      index: index(),
    });
    await s.commit([update(2)]);
    await t.rejects(s.commit([update(3)]), { name: 'StoreConflict' });
    t.equal((await s.get('tenders', change.id))?.doc.data.v, 2);
  });

  t.test('two writers racing on one revision: exactly one wins', async (t) => {
    const change = insert('frameworks');
    await store.session().commit([change]);
    const results = await Promise.allSettled(
      [1, 2].map((v) =>
        store.session().commit([{ op: 'update', kind: 'frameworks', id: change.id, expectedRev: 1, doc: { data: { v } }, index: index() }]),
      ),
    );
    t.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    t.equal(results.filter((r) => r.status === 'rejected' && r.reason?.name === 'StoreConflict').length, 1);
  });

  t.test('inserting an existing id is a conflict', async (t) => {
    const change = insert('tenders');
    await store.session().commit([change]);
    await t.rejects(store.session().commit([change]), { name: 'StoreConflict' });
  });

  t.test('a multi-object commit is atomic: one stale change leaves every object as it was', async (t) => {
    const a = insert('submissions', { v: 1 });
    await store.session().commit([a]);
    const b = insert('qualifications');
    await t.rejects(
      store.session().commit([b, { op: 'update', kind: 'submissions', id: a.id, expectedRev: 7, doc: { data: { v: 2 } }, index: index() }]),
      { name: 'StoreConflict' },
    );
    t.equal(await store.session().get('qualifications', b.id), null);
    t.equal((await store.session().get('submissions', a.id))?.doc.data.v, 1);
  });

  t.test('feed pages ascend by seq, exclude non-public objects, and continue after an offset', async (t) => {
    const s = store.session();
    const ids = await insertOneByOne(s, 'tenders', 5);
    await s.commit([insert('tenders', {}, { isPublic: false })]);
    const page1 = await s.feed({ kind: 'tenders', descending: false, limit: 3, mode: 'live' });
    t.same(
      page1.map((x) => x.id),
      ids.slice(0, 3),
    );
    const page2 = await s.feed({ kind: 'tenders', offset: page1[2].seq, descending: false, limit: 3, mode: 'live' });
    t.same(
      page2.map((x) => x.id),
      ids.slice(3),
    );
    const desc = await s.feed({ kind: 'tenders', descending: true, limit: 10, mode: 'live' });
    t.same(
      desc.map((x) => x.id),
      [...ids].reverse(),
    );
  });

  t.test('feed modes: live excludes test objects, test lists only them, all lists both', async (t) => {
    const s = store.session();
    const live = insert('contracts');
    const test = insert('contracts', {}, { isTest: true });
    await s.commit([live]);
    await s.commit([test]);
    const ids = async (mode: 'live' | 'test' | 'all') =>
      (await s.feed({ kind: 'contracts', descending: false, limit: 10, mode })).map((x) => x.id);
    t.same(await ids('live'), [live.id]);
    t.same(await ids('test'), [test.id]);
    t.same(await ids('all'), [live.id, test.id]);
  });

  t.test('an updated object moves to the end of the feed', async (t) => {
    const s = store.session();
    const a = insert('agreements');
    const b = insert('agreements');
    await s.commit([a]);
    await s.commit([b]);
    await s.commit([{ op: 'update', kind: 'agreements', id: a.id, expectedRev: 1, doc: { data: { id: a.id } }, index: index() }]);
    t.same(
      (await s.feed({ kind: 'agreements', descending: false, limit: 10, mode: 'live' })).map((x) => x.id),
      [b.id, a.id],
    );
  });

  t.test('a listing page: JSON of the listed fields an unrestricted object has, exactly as JSON.stringify writes them', async (t) => {
    const s = store.session();
    const data = AWKWARD_DATA;
    const configs = [undefined, {}, { restricted: false }, { restricted: null }, { restricted: 0 }];
    const changes = configs.map((config) => {
      const change = insert('tenders', data);
      if (config) change.doc.config = config;
      return change;
    });
    await s.commit(changes);
    const listed = ['id', 'absent', 'title', 'status', 'nested', 'amounts'];
    const page = await s.feedListing({ kind: 'tenders', descending: false, limit: 10, mode: 'live', listed, reads: ['owner'] });
    const whole = await s.feed({ kind: 'tenders', descending: false, limit: 10, mode: 'live' });
    t.same(
      page.map((l) => l.seq),
      whole.map((x) => x.seq),
    );
    whole.forEach(({ doc }, i) => {
      const { id, title, status, nested, amounts } = doc.data;
      const json = 'json' in page[i] ? page[i].json.toString() : 'a doc';
      t.equal(json, JSON.stringify({ id, title, status, nested, amounts }), `config ${JSON.stringify(configs[i])}`);
    });
  });

  t.test('a listing page: restricted objects as docs of config.restricted and the listed and read fields they have', async (t) => {
    const s = store.session();
    const data = { status: 'active', owner: 'broker', title: 'hidden in part', nested: { a: [1] } };
    const restricted = [true, 'yes', 1, ''].map((value) => ({ ...insert('tenders', data), value }));
    for (const change of restricted) change.doc.config = { restricted: change.value, other: 1 };
    await s.commit(restricted);
    const page = await s.feedListing({
      kind: 'tenders',
      descending: true,
      limit: 10,
      mode: 'live',
      listed: ['id', 'nested', 'status'],
      reads: ['owner', 'id', 'absent'],
    });
    t.same(
      page.map((l) => ('doc' in l ? l.doc : 'json')),
      [...restricted]
        .reverse()
        .map((c) => ({ config: { restricted: c.value }, data: { id: c.id, nested: data.nested, status: 'active', owner: 'broker' } })),
    );
    t.strictSame(
      page.map((l) => 'doc' in l && Object.keys(l.doc.data)),
      page.map(() => ['id', 'nested', 'status', 'owner']),
    );
  });

  t.test('a listing page follows the offset, order, limit and mode of the feed', async (t) => {
    const s = store.session();
    const ids = await insertOneByOne(s, 'frameworks', 4);
    await s.commit([insert('frameworks', {}, { isTest: true }), insert('frameworks', {}, { isPublic: false })]);
    const query = { kind: 'frameworks' as const, listed: ['id'], reads: [] };
    const listedIds = async (over: Partial<FeedQuery>) =>
      (await s.feedListing({ ...query, descending: false, limit: 10, mode: 'live', ...over })).map((l) =>
        'json' in l ? JSON.parse(l.json.toString()).id : l,
      );
    const all = await s.feedListing({ ...query, descending: false, limit: 10, mode: 'live' });
    t.same(await listedIds({}), ids);
    t.same(await listedIds({ offset: all[1].seq, limit: 1 }), [ids[2]]);
    t.same(await listedIds({ offset: all[2].seq, descending: true }), [ids[1], ids[0]]);
    t.equal((await listedIds({ mode: 'test' })).length, 1);
    t.equal((await listedIds({ mode: 'all' })).length, 5);
  });

  t.test('a frameworkID narrows feed and listing pages to that framework, with offset, order and mode', async (t) => {
    const s = store.session();
    const ofA = [
      insert('submissions', { frameworkID: 'a' }),
      insert('submissions', { frameworkID: 'a' }),
      insert('submissions', { frameworkID: 'a' }),
    ];
    await s.commit([ofA[0]]);
    await s.commit([insert('submissions', { frameworkID: 'b' }), insert('submissions'), insert('qualifications', { frameworkID: 'a' })]);
    await s.commit([ofA[1], insert('submissions', { frameworkID: 'a' }, { isPublic: false })]);
    await s.commit([ofA[2]]);
    await s.commit([insert('submissions', { frameworkID: 'a' }, { isTest: true })]);
    const query = { kind: 'submissions' as const, frameworkID: 'a', descending: false, limit: 10, mode: 'live' as const };
    const feedIds = async (over: Partial<FeedQuery>) => (await s.feed({ ...query, ...over })).map((x) => x.id);
    const listingIds = async (over: Partial<FeedQuery>) =>
      (await s.feedListing({ ...query, listed: ['id'], reads: [], ...over })).map((l) =>
        'json' in l ? JSON.parse(l.json.toString()).id : l,
      );
    const [first, second] = await s.feed(query);
    for (const ids of [feedIds, listingIds]) {
      t.same(
        await ids({}),
        ofA.map((c) => c.id),
      );
      t.same(await ids({ offset: first.seq, limit: 1 }), [ofA[1].id]);
      t.same(await ids({ offset: second.seq, descending: true }), [ofA[0].id]);
      t.equal((await ids({ mode: 'all' })).length, 4);
      t.same(await ids({ frameworkID: 'c' }), []);
    }
  });

  t.test('counters count from 1 and are unique under concurrent use', async (t) => {
    const values = await Promise.all(Array.from({ length: 20 }, () => store.session().nextCounter('tenderID:2026-01-01')));
    t.same(
      [...values].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    t.equal(await store.session().nextCounter('other'), 1);
  });

  t.test('numbered commits store their numbers, unique and from 1 under concurrent use, shared with nextCounter', async (t) => {
    const changes = Array.from({ length: 20 }, () => insert('tenders'));
    const numbered = (change: Change) => ({ counter: 'tenderID:2026-01-02', assign: (n: number) => (change.doc.data.n = n) });
    await Promise.all(changes.map((change) => store.session().commit([change], numbered(change))));
    const stored = await store.session().getMany(
      'tenders',
      changes.map((c) => c.id),
    );
    t.same(
      stored.map((s) => s.doc.data.n).sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    t.equal(await store.session().nextCounter('tenderID:2026-01-02'), 21);
  });

  t.test('a refused numbered commit stores nothing and the numbers after it stay unique', async (t) => {
    const s = store.session();
    const first = insert('frameworks');
    const numbered = { counter: 'framework:2026-01-02', assign: (n: number) => (first.doc.data.n = n) };
    await s.commit([first], numbered);
    await t.rejects(s.commit([first], numbered), { name: 'StoreConflict' });
    t.equal((await s.get('frameworks', first.id))?.doc.data.n, 1);
    t.ok((await s.nextCounter('framework:2026-01-02')) >= 2, 'a number is taken at most once (a refused commit may use one up)');
  });

  t.test('commits made at once land or fail each on their own, each landed one with a number of its own', async (t) => {
    const existing = insert('tenders');
    await store.session().commit([existing]);
    const counter = 'tenderID:2026-01-03';
    const numbered = (change: Change) => ({ counter, assign: (n: number) => (change.doc.data.n = n) });
    const fresh = Array.from({ length: 6 }, () => insert('tenders'));
    const attempts = [...fresh.slice(0, 3), existing, ...fresh.slice(3)];
    const results = await Promise.allSettled(attempts.map((change) => store.session().commit([change], numbered(change))));
    t.same(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
    t.equal((results[3] as PromiseRejectedResult).reason?.name, 'StoreConflict');
    const stored = await store.session().getMany(
      'tenders',
      fresh.map((c) => c.id),
    );
    const numbers = stored.map((s) => s.doc.data.n);
    t.equal(new Set(numbers).size, 6, 'unique numbers');
    t.ok(
      numbers.every((n) => n >= 1 && n <= 7),
      'from 1, at most one used up by the refused commit',
    );
    const seqs = results.flatMap((r) => (r.status === 'fulfilled' ? r.value.map((s) => s.seq) : []));
    t.equal(new Set(seqs).size, 6, 'every landed commit has a seq of its own');
    t.ok((await store.session().nextCounter(counter)) > Math.max(...numbers));
  });

  t.test('due lists objects whose next check has passed, earliest first', async (t) => {
    const s = store.session();
    const late = insert('tenders', {}, { nextCheck: 2000 });
    const early = insert('frameworks', {}, { nextCheck: 1000 });
    const future = insert('tenders', {}, { nextCheck: 9000 });
    await s.commit([late, early, future]);
    const due = await store.due(5000, 10);
    t.same(
      due.map((d) => d.id),
      [early.id, late.id],
    );
    t.same(
      due.map((d) => d.kind),
      ['frameworks', 'tenders'],
    );
  });

  t.test('blobs round-trip bytes and content type', async (t) => {
    const s = store.session();
    const data = Buffer.from([0, 1, 2, 255, 10, 13]);
    await s.putBlob({ id: 'blob1', contentType: 'application/pdf', data });
    const got = await s.getBlob('blob1');
    t.equal(got?.contentType, 'application/pdf');
    t.ok(got?.data.equals(data));
    t.equal(await s.getBlob('missing'), null);
  });

  t.test('a session token covers its writes, and a session opened with it reads them', async (t) => {
    const s = store.session();
    const c = insert('tenders');
    await s.commit([c]);
    const token = s.token();
    t.ok(token && typeof token === 'object');
    const again = store.session(JSON.parse(JSON.stringify(token)));
    t.ok(await again.get('tenders', c.id));
  });

  /** Two nodes on one store, each with its own clock, closed when the test ends. */
  const twoNodes = async (t: Test, first: () => number, second: () => number): Promise<[Store, Store]> => {
    const a = await open({ clock: first });
    const b = await open({ clock: second, sharing: a });
    t.teardown(async () => {
      await b.close();
      await a.close();
    });
    return [a, b];
  };

  t.test('feed positions are UNIX seconds of the clock, strictly rising in commit order', async (t) => {
    const at = Date.parse('2026-11-25T10:00:00Z');
    const clocked = await open({ clock: () => at });
    t.teardown(() => clocked.close());
    const s = clocked.session();
    const seqs: number[] = [];
    for (const change of [insert('tenders'), insert('tenders'), insert('frameworks')]) seqs.push((await s.commit([change]))[0].seq);
    seqs.push(...(await s.commit([insert('tenders'), insert('contracts')])).map((x) => x.seq));
    for (const seq of seqs) t.ok(seq >= at / 1000 && seq < at / 1000 + 1, `${seq} within a second of the clock`);
    t.same(
      [...seqs].sort((a, b) => a - b),
      seqs,
      'rising',
    );
    t.equal(new Set(seqs).size, seqs.length, 'unique');
    t.ok(
      seqs.every((seq) => Math.round(seq * 1e6) / 1e6 === seq),
      'microsecond steps',
    );
  });

  t.test('two nodes an hour apart: an object updated by the one behind still moves forward in the feed', async (t) => {
    let now = Date.now();
    const [ahead, behind] = await twoNodes(
      t,
      () => now + 3_600_000,
      () => now,
    );
    const change = insert('tenders');
    const [first] = await ahead.session().commit([change]);
    const [second] = await behind
      .session()
      .commit([{ op: 'update', kind: 'tenders', id: change.id, expectedRev: 1, doc: change.doc, index: index() }]);
    t.ok(second.seq > first.seq, 'the update lands after the insert');
    now += 2 * 3_600_000;
    const [third] = await ahead
      .session()
      .commit([{ op: 'update', kind: 'tenders', id: change.id, expectedRev: 2, doc: change.doc, index: index() }]);
    t.ok(third.seq > second.seq);
  });

  t.test(
    'a crawler following pages while two skewed nodes write concurrently sees every acknowledged change, in commit order',
    async (t) => {
      let now = Date.now();
      const [a, b] = await twoNodes(
        t,
        () => now + 1500,
        () => now,
      );
      /** id → highest acknowledged rev. */
      const acknowledged = new Map<string, number>();
      const seen = new Map<string, number>();
      let offset: number | undefined;
      let last = -Infinity;
      let backwards = 0;
      const crawl = async (through: Store) => {
        const page = await through.session().feed({ kind: 'tenders', offset, descending: false, limit: 7, mode: 'live' });
        for (const entry of page) {
          if (entry.seq <= last) backwards++;
          last = entry.seq;
          seen.set(entry.id, Math.max(seen.get(entry.id) ?? 0, entry.rev));
        }
        if (page.length) offset = page[page.length - 1].seq;
        return page.length;
      };
      const writer = async (node: Store, n: number) => {
        for (let i = 0; i < n; i++) {
          const ids = [...acknowledged.keys()];
          const id = ids.length > 3 && i % 3 ? ids[(i * 7) % ids.length] : undefined;
          if (id === undefined) {
            const change = insert('tenders');
            await node.session().commit([change]);
            acknowledged.set(change.id, 1);
            continue;
          }
          const current = (await node.session().get('tenders', id))!;
          try {
            const [saved] = await node
              .session()
              .commit([{ op: 'update', kind: 'tenders', id, expectedRev: current.rev, doc: current.doc, index: index() }]);
            acknowledged.set(id, Math.max(acknowledged.get(id) ?? 0, saved.rev));
          } catch (error) {
            if ((error as Error).name !== 'StoreConflict') throw error;
          }
        }
      };
      const crawler = async () => {
        for (let i = 0; i < 40; i++) {
          await crawl(i % 2 ? a : b);
          now += 50;
        }
      };
      await Promise.all([writer(a, 30), writer(b, 30), crawler()]);
      now += 5000;
      // The other node publishes its floor on its heartbeat: poll until the crawler has read past every change.
      for (let round = 0; round < 200 && [...acknowledged].some(([id, rev]) => (seen.get(id) ?? 0) < rev); round++) {
        if ((await crawl(round % 2 ? a : b)) === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const missed = [...acknowledged].filter(([id, rev]) => (seen.get(id) ?? 0) < rev);
      t.same(missed, [], 'no acknowledged change missed');
      t.equal(backwards, 0, 'positions rise page after page');
    },
  );

  transferContract(t, () => open());
}
