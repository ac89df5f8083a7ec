/**
 * Feed entries kept by their positions on MongoDB (docs/mongodb.md §Feed pages on MongoDB): a page read partly
 * from memory is the page a node keeping nothing reads, whatever changed in between, and a superseded version never
 * comes back.
 */
import t from 'tap';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { freshMongoDatabase } from '../fixtures/server';
import type { Change, Listing, ListingQuery, Store, Stored } from '../../src/store/port';

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

const INDEX = { isPublic: true, isTest: false, nextCheck: null };

const docOf = (id: string, n: number, restricted: boolean) => ({
  data: { id, dateModified: `2026-11-26T10:00:${String(n % 60).padStart(2, '0')}+02:00`, status: `s${n}`, owner: 'broker' },
  ...(restricted ? { config: { restricted: true } } : {}),
});

const insert = (n: number, restricted: boolean): Change => {
  const id = randomUUID().replace(/-/g, '');
  return { op: 'insert', kind: 'tenders', id, doc: docOf(id, n, restricted), index: INDEX };
};

const update = (stored: Stored, n: number): Change => ({
  op: 'update',
  kind: 'tenders',
  id: stored.id,
  expectedRev: stored.rev,
  doc: docOf(stored.id, n, stored.doc.config?.restricted === true),
  index: INDEX,
});

const QUERY: ListingQuery = {
  kind: 'tenders',
  descending: false,
  limit: 5,
  mode: 'live',
  listed: ['id', 'dateModified', 'status'],
  reads: ['owner'],
};

/** A listing as comparable values. */
const plain = (listing: Listing) => ({ seq: listing.seq, entry: 'json' in listing ? listing.json.toString() : listing.doc });

/** Every page of the feed from the start, following the last position, as `store` lists it. */
async function crawl(store: Store, descending = false): Promise<ReturnType<typeof plain>[]> {
  const entries: ReturnType<typeof plain>[] = [];
  let offset: number | undefined;
  for (;;) {
    const page = await store.session().feedListing({ ...QUERY, descending, offset });
    if (!page.length) return entries;
    entries.push(...page.map(plain));
    offset = page[page.length - 1].seq;
  }
}

/**
 * Waits until `store` lists the position: a feed lists a change once every live node's floor, as the reader last
 * read it, is above it (docs/mongodb.md §Feed ordering on MongoDB), a heartbeat after it at the most.
 */
async function listed(store: Store, seq: number): Promise<void> {
  for (let wait = 0; wait < 200; wait++) {
    const [last] = await store.session().feedListing({ ...QUERY, descending: true, limit: 1 });
    if (last?.seq === seq) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`position ${seq} never listed`);
}

if (!url) {
  t.plan(0, 'MONGODB_URL (or a mongodb:// STORE_URL) not set');
} else {
  const database = freshMongoDatabase(url);
  let keeping: Store;
  let bare: Store;
  t.before(async () => {
    const options = { feedFloors: { heartbeatMs: 20 } };
    keeping = await openMongoStore(database, options);
    bare = await openMongoStore(database, { ...options, keptListingsBytes: 0 });
  });
  t.teardown(async () => {
    await Promise.all([keeping, bare].map((n) => n.close()));
    const admin = new MongoClient(database);
    await admin.db().dropDatabase();
    await admin.close();
  });

  t.test('pages partly kept equal the pages of a node keeping nothing, through random changes', async (t) => {
    const live: Stored[] = [];
    let n = 0;
    // Each step changes the store through the keeping node, then both nodes crawl the whole feed in both directions.
    const step = fc.oneof(fc.record({ insert: fc.boolean() }), fc.record({ update: fc.nat() }));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        for (const s of steps) {
          if ('insert' in s || !live.length) {
            const [stored] = await keeping.session().commit([insert(n++, 'insert' in s && s.insert)]);
            live.push(stored);
          } else {
            const i = s.update % live.length;
            [live[i]] = await keeping.session().commit([update(live[i], n++)]);
          }
        }
        // A crawl lists the changes once every node's floor it last read is above them.
        const last = Math.max(...live.map((s) => s.seq));
        for (const node of [bare, keeping]) await listed(node, last);
        for (const descending of [false, true]) {
          const [kept, fresh] = [await crawl(keeping, descending), await crawl(bare, descending)];
          t.same(kept, fresh, `${live.length} objects, descending ${descending}`);
          t.equal(kept.length, live.length, 'each object once, at its latest version');
          t.same(
            kept.map((e) => e.seq),
            live.map((s) => s.seq).sort((a, b) => (descending ? b - a : a - b)),
          );
        }
      }),
      { numRuns: 25, seed: 19 },
    );
  });

  t.test('crawlers on a node that keeps nothing yet, all at once, each list the feed whole', async (t) => {
    const cold = await openMongoStore(database, { feedFloors: { heartbeatMs: 20 } });
    try {
      const expected = await crawl(bare);
      t.ok(expected.length > 10, 'a feed of several pages');
      const crawls = await Promise.all(Array.from({ length: 6 }, () => crawl(cold)));
      for (const [i, crawled] of crawls.entries()) t.same(crawled, expected, `crawler ${i}`);
    } finally {
      await cold.close();
    }
  });

  t.test('an entry to mask is shared frozen: no reader can change it for the next', async (t) => {
    const [stored] = await keeping.session().commit([insert(1000, true)]);
    const page = async () => (await keeping.session().feedListing({ ...QUERY, offset: stored.seq - 1e-6, limit: 1 }))[0];
    await listed(keeping, stored.seq);
    const first = await page();
    t.ok('doc' in first, 'restricted: handed over to mask');
    t.throws(() => 'doc' in first && ((first.doc.data as Record<string, unknown>).status = 'changed by a reader'), TypeError);
    const again = await page();
    t.same(plain(again).entry, {
      config: { restricted: true },
      data: { id: stored.id, dateModified: stored.doc.data.dateModified, status: 's1000', owner: 'broker' },
    });
  });
}
