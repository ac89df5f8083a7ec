import t from 'tap';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeptListings, listingFields } from '../../src/store/kept-listings';
import type { Change, ListingQuery } from '../../src/store/port';
import { feedStatements } from '../../src/store/sqlite/feed-statements';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';

/** Feed entries kept by their positions on SQLite (docs/performance.md §Feed entries kept on SQLite). */
const root = mkdtempSync(join(tmpdir(), 'kept-listings-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

const QUERY: ListingQuery = { kind: 'tenders', descending: false, limit: 10, mode: 'live', listed: ['id', 'status'], reads: ['owner'] };
const insert = (id: string, status: string, restricted = false): Change => ({
  op: 'insert',
  kind: 'tenders',
  id,
  doc: { data: { id, status, owner: 'broker' }, config: { restricted } },
  index: { isPublic: true, isTest: false, nextCheck: null },
});
const text = (listings: { seq: number }[]) => JSON.stringify(listings.map((l) => ('json' in l ? { seq: l.seq, json: String(l.json) } : l)));

async function loaded() {
  const path = join(mkdtempSync(join(root, 'db-')), 'r.db');
  const store = openSqliteStore(path, { keptListingsBytes: 0 });
  t.teardown(() => store.close());
  await store.session().commit([insert('a', 'active'), insert('b', 'draft', true), insert('c', 'complete')]);
  return { store, path };
}

t.test('a page read again comes from memory, byte for byte as read from SQL', async (t) => {
  const { path } = await loaded();
  const reader = new Database(path);
  t.teardown(() => reader.close());
  const kept = new KeptListings();
  const feeds = feedStatements(reader, kept);
  const uncached = feedStatements(reader);
  const first = feeds.listing(QUERY);
  t.equal(first.length, 3);
  t.equal(text(first), text(uncached.listing(QUERY)), 'as without memory');
  t.ok(
    first.every((l) => kept.feed('tenders', listingFields(QUERY)).has(l.seq)),
    'each entry kept by its position',
  );
  // A row changed in place (no commit does that: a change always takes a new position) shows what was kept.
  reader.prepare(`UPDATE objects SET doc = jsonb(json_set(json(doc), '$.data.status', 'x')) WHERE id = 'a'`).run();
  t.equal(text(feeds.listing(QUERY)), text(first), 'from memory');
  t.not(text(uncached.listing(QUERY)), text(first), 'SQL sees the row changed in place');
  const restricted = feeds.listing(QUERY).find((l) => 'doc' in l)!;
  t.throws(() => 'doc' in restricted && (restricted.doc.data.status = 'changed by a reader'), TypeError, 'shared frozen');
  t.equal(text(feeds.listing(QUERY).filter((l) => 'doc' in l)), text(first.filter((l) => 'doc' in l)), 'unchanged for the next reader');
  t.same(
    feeds.listing({ ...QUERY, listed: ['id', 'status', 'owner'], reads: [] }).map((l) => 'json' in l && JSON.parse(String(l.json))),
    [{ id: 'a', status: 'x', owner: 'broker' }, false, { id: 'c', status: 'complete', owner: 'broker' }],
    'other fields are other entries',
  );
});

t.test('through the store: a changed object is listed once, at its new position, as its new version', async (t) => {
  const path = join(mkdtempSync(join(root, 'db-')), 'r.db');
  const store = openSqliteStore(path);
  t.teardown(() => store.close());
  const session = store.session();
  await session.commit([insert('a', 'active'), insert('b', 'draft', true), insert('c', 'complete')]);
  const before = await session.feedListing(QUERY);
  t.same(await session.feedListing(QUERY), before, 'read again');
  const a = (await session.get('tenders', 'a'))!;
  await session.commit([
    {
      op: 'update',
      kind: 'tenders',
      id: 'a',
      expectedRev: a.rev,
      doc: { ...a.doc, data: { ...a.doc.data, status: 'cancelled' } },
      index: { isPublic: true, isTest: false, nextCheck: null },
    },
  ]);
  const after = await session.feedListing(QUERY);
  t.same(
    after.map((l) => ('json' in l ? JSON.parse(String(l.json)) : l.doc.data)),
    [
      { id: 'b', status: 'draft', owner: 'broker' },
      { id: 'c', status: 'complete' },
      { id: 'a', status: 'cancelled' },
    ],
  );
  t.ok(after.at(-1)!.seq > before.at(-1)!.seq, 'at a new position');
});
