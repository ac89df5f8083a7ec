/** Several stores on one database behave as several API nodes on one replica set. */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import type { Change, Store } from '../../src/store/port';

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

const withDatabase = (url: string, name: string) => url.replace(/^(mongodb:\/\/[^/?]*)(\/[^?]*)?/, `$1/${name}`);

const insert = (kind: Change['kind'] = 'tenders'): Change => ({
  op: 'insert',
  kind,
  id: randomUUID().replace(/-/g, ''),
  doc: { data: {} },
  index: { isPublic: true, isTest: false, nextCheck: null },
});

if (!url) {
  t.plan(0, 'MONGODB_URL (or a mongodb:// STORE_URL) not set');
} else {
  const name = `nodes_${randomUUID().slice(0, 8)}`;
  let nodes: Store[] = [];
  t.before(async () => {
    nodes = await Promise.all([1, 2, 3].map(() => openMongoStore(withDatabase(url, name))));
  });
  t.teardown(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    const admin = new MongoClient(url);
    await admin.db(name).dropDatabase();
    await admin.close();
  });

  t.test('a crawler paging by position while two nodes commit concurrently misses no object', async (t) => {
    const [a, b, crawlerNode] = nodes;
    const committed: string[] = [];
    const writer = async (node: Store) => {
      for (let i = 0; i < 15; i++) {
        const changes = i % 3 === 0 ? [insert(), insert()] : [insert()];
        await node.session().commit(changes);
        committed.push(...changes.map((c) => c.id));
      }
    };
    const seen = new Set<string>();
    let offset: number | undefined;
    const crawl = async () => {
      for (;;) {
        const page = await crawlerNode.session().feed({ kind: 'tenders', offset, descending: false, limit: 4, mode: 'live' });
        if (page.length === 0) return;
        for (const object of page) seen.add(object.id);
        offset = page[page.length - 1].seq;
      }
    };
    let writing = true;
    const writers = Promise.all([writer(a), writer(a), writer(b), writer(b)]).finally(() => (writing = false));
    while (writing) await crawl();
    await writers;
    // The writers' last commits are listed once their nodes publish floors above them, at their next heartbeat.
    for (let round = 0; round < 100 && seen.size < committed.length; round++) {
      await crawl();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    t.equal(seen.size, committed.length);
    t.same([...seen].sort(), [...committed].sort());
  });

  t.test('concurrent commits on two nodes get distinct seqs in each kind', async (t) => {
    const saved = await Promise.all(
      Array.from({ length: 20 }, (_, i) => nodes[i % 2].session().commit([insert('contracts'), insert('agreements')])),
    );
    // Positions are unique per kind (port.ts `Stored.seq`): one kind's feed never lists two objects at one position.
    for (const kind of ['contracts', 'agreements']) {
      const seqs = saved
        .flat()
        .filter((s) => s.kind === kind)
        .map((s) => s.seq);
      t.equal(new Set(seqs).size, seqs.length, kind);
    }
  });

  t.test('90 inserts at once on three nodes whose clocks read the same millisecond all land, at distinct positions', async (t) => {
    const now = Date.now();
    const database = `${name}_same_ms`;
    const sameClock = await Promise.all(
      [1, 2, 3].map(() => openMongoStore(withDatabase(url, database), { feedFloors: { clock: () => now } })),
    );
    t.teardown(async () => {
      for (const node of sameClock) await node.close();
      const admin = new MongoClient(url);
      await admin.db(database).dropDatabase();
      await admin.close();
    });
    const saved = await Promise.all(Array.from({ length: 90 }, (_, i) => sameClock[i % 3].session().commit([insert()])));
    const seqs = saved.flat().map((s) => s.seq);
    t.equal(new Set(seqs).size, 90);
  });

  t.test('a new counter first incremented on two nodes at once counts 1..n without gaps or repeats', async (t) => {
    const counter = `tenderID:${randomUUID()}`;
    const values = await Promise.all(Array.from({ length: 20 }, (_, i) => nodes[i % 2].session().nextCounter(counter)));
    t.same(
      [...values].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  t.test('numbered creates on three nodes take unique numbers, rising on each node, one $inc per block', async (t) => {
    const counter = `tenderID:${randomUUID()}`;
    const numberedOn = async (node: Store) => {
      const numbers: number[] = [];
      for (let i = 0; i < 20; i++) {
        const change = insert();
        await node.session().commit([change], { counter, assign: (n) => (change.doc.data.n = n) });
        numbers.push(change.doc.data.n as number);
      }
      return numbers;
    };
    const perNode = await Promise.all(nodes.map(numberedOn));
    for (const numbers of perNode)
      t.same(
        numbers,
        [...numbers].sort((x, y) => x - y),
        'rising on each node',
      );
    const all = perNode.flat();
    t.equal(new Set(all).size, 60, 'unique across nodes');
    const admin = new MongoClient(url);
    const drawn = await admin.db(name).collection<{ _id: string; value: number }>('counters').findOne({ _id: counter });
    await admin.close();
    // 20 creates per node are two blocks of 16 each: the counter moved by whole blocks, not by create.
    t.equal(drawn?.value, 3 * 2 * 16);
    t.ok(Math.max(...all) <= drawn!.value);
  });
  t.test("a session opened on another node with a session's token reads that session's write", async (t) => {
    const writer = nodes[0].session();
    const change = insert('frameworks');
    await writer.commit([change]);
    const reader = nodes[1].session(JSON.parse(JSON.stringify(writer.token())));
    t.equal((await reader.get('frameworks', change.id))?.rev, 1);
    t.ok(reader.token().operationTime, 'the reader token carries an operation time');
  });

  t.test('putting a blob under an existing id replaces its content and type', async (t) => {
    const id = randomUUID();
    await nodes[0].session().putBlob({ id, contentType: 'text/plain', data: Buffer.from('first') });
    await nodes[1].session().putBlob({ id, contentType: 'application/pdf', data: Buffer.from('second') });
    const got = await nodes[0].session().getBlob(id);
    t.equal(got?.contentType, 'application/pdf');
    t.equal(got?.data.toString(), 'second');
  });
}
