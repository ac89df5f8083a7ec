import t from 'tap';
import { createServer, connect, type Socket } from 'node:net';
import { MongoBulkWriteError, MongoNetworkError, MongoServerError, type BulkWriteResult } from 'mongodb';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { toStoreError } from '../../src/store/mongo/mongo-errors';
import { StoreConflict, StoreUnavailable, type Change, type Store } from '../../src/store/port';
import { aFramework } from '../fixtures/frameworks';
import { startTestServer } from '../fixtures/server';

const notWritablePrimary = () => new MongoServerError({ code: 10107, codeName: 'NotWritablePrimary', errmsg: 'not primary' });

t.test('opening a store on an unreachable server fails with StoreUnavailable', async (t) => {
  // Port 9 (discard) on loopback: nothing listens, so server selection gives up after the timeout.
  await t.rejects(openMongoStore('mongodb://127.0.0.1:9/?replicaSet=secantus', { serverSelectionTimeoutMS: 200 }), StoreUnavailable);
});

t.test('primary-change and network errors become StoreUnavailable; conflicts and bugs stay themselves', async (t) => {
  t.type(toStoreError(notWritablePrimary()), StoreUnavailable);
  t.type(toStoreError(new MongoServerError({ code: 189, codeName: 'PrimarySteppedDown', errmsg: 'stepped down' })), StoreUnavailable);
  t.type(toStoreError(new MongoNetworkError('connection reset')), StoreUnavailable);
  const conflict = new StoreConflict('revision');
  t.equal(toStoreError(conflict), conflict);
  const duplicate = new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key' });
  t.equal(toStoreError(duplicate), duplicate);
  const bug = new TypeError('x is undefined');
  t.equal(toStoreError(bug), bug);
});

/** A store whose every read and write fails as the MongoDB adapter reports a primary that stays unavailable. */
function unavailableWhile(isDown: () => boolean) {
  return (store: Store): Store => ({
    ...store,
    session(token) {
      const session = store.session(token);
      const unavailable = (): Error => toStoreError(notWritablePrimary()) as Error;
      const failing =
        <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
        (...args: A) =>
          isDown() ? Promise.reject(unavailable()) : operation(...args);
      return {
        ...session,
        get: failing(session.get),
        getView: failing(session.getView),
        getMany: failing(session.getMany),
        commit: failing(session.commit),
        feed: failing(session.feed),
        feedListing: failing(session.feedListing),
        nextCounter: failing(session.nextCounter),
      };
    },
  });
}

t.test('NotWritablePrimary that persists → 503 in the error format on reads, feeds and writes; served again once it passes', async (t) => {
  let down = false;
  const server = await startTestServer({ wrapStore: unavailableWhile(() => down) });
  t.teardown(() => server.close());
  const created = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', body: { data: aFramework(server.clock.now()) } });
  t.equal(created.status, 201);
  const path = `/api/2.5/frameworks/${created.body.data.id}`;
  down = true;
  const unavailable = { status: 'error', errors: [{ location: 'url', name: 'store', description: 'Service Unavailable' }] };
  for (const [method, target, body] of [
    ['GET', path, undefined],
    ['GET', '/api/2.5/frameworks', undefined],
    ['POST', '/api/2.5/frameworks', { data: aFramework(server.clock.now()) }],
  ] as const) {
    const reply = await server.request(method, target, { key: 'broker', body });
    t.equal(reply.status, 503, `${method} ${target}`);
    t.same(reply.body, unavailable);
    t.match(reply.headers.get('set-cookie'), /^SESSION=/, 'the session cookie is still set');
  }
  down = false;
  t.equal((await server.request('GET', path)).status, 200);
});

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

/** A TCP relay to the MongoDB server that can drop every open connection, or refuse new ones. */
async function relayTo(target: string) {
  const [host, port] = /^mongodb:\/\/([^/?,]+)/.exec(target)![1].split(':');
  const sockets = new Set<Socket>();
  let refusing = false;
  const relay = createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = connect(Number(port ?? 27017), host);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    // directConnection: the driver must keep talking to the relay, not to the members hello names.
    url: `mongodb://127.0.0.1:${(relay.address() as { port: number }).port}/relay_${process.pid}?directConnection=true`,
    dropConnections: () => sockets.forEach((s) => s.destroy()),
    refuse() {
      refusing = true;
      sockets.forEach((s) => s.destroy());
    },
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

t.test(
  'through connections dropped mid-run (MONGODB_URL)',
  { skip: url ? false : 'MONGODB_URL (or a mongodb:// STORE_URL) not set' },
  async (t) => {
    const relay = await relayTo(url!);
    const store = await openMongoStore(relay.url, { serverSelectionTimeoutMS: 500 });
    t.teardown(async () => {
      await store.close();
      await relay.close();
    });
    const insert = (id: string): Change => ({
      op: 'insert',
      kind: 'frameworks',
      id,
      doc: { data: { id } },
      index: { isPublic: true, isTest: false, nextCheck: null },
    });
    const id = 'e'.repeat(32);
    await store.session().commit([insert(id)]);

    t.test('a read on a connection that died is retried by the driver and succeeds', async (t) => {
      relay.dropConnections();
      t.equal((await store.session().get('frameworks', id))?.id, id);
    });

    t.test('a commit on a connection that died is retried and applied once', async (t) => {
      relay.dropConnections();
      const [saved] = await store.session().commit([insert('f'.repeat(32))]);
      t.equal(saved.rev, 1);
      t.equal((await store.session().get('frameworks', saved.id))?.seq, saved.seq);
    });

    t.test('a server that stays unreachable fails the operation as StoreUnavailable', async (t) => {
      relay.refuse();
      // An object this node has not read: one it keeps may be answered from memory (docs/mongodb.md §Kept views on MongoDB).
      await t.rejects(store.session().get('frameworks', 'b'.repeat(32)), StoreUnavailable);
    });
  },
);

t.test('a bulk write cut by a dropped connection becomes StoreUnavailable, not a bug', async (t) => {
  const cut = new MongoBulkWriteError(new MongoNetworkError('connection 10 to 127.0.0.1:1 closed'), {} as BulkWriteResult);
  t.type(toStoreError(cut), StoreUnavailable);
});
