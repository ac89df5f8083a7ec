/**
 * The feed on MongoDB against adversarial commits (docs/mongodb.md §Feed ordering on MongoDB): one held open
 * while later ones land, and a node killed mid-commit.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { feedDelay } from '../../src/metrics';
import { FeedFloors } from '../../src/store/mongo/feed-floors';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import type { Change, Store } from '../../src/store/port';

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

const withDatabase = (url: string, name: string) => url.replace(/^(mongodb:\/\/[^/?]*)(\/[^?]*)?/, `$1/${name}`);
const index = { isPublic: true, isTest: false, nextCheck: null };
const insert = (): Change => {
  const id = randomUUID().replace(/-/g, '');
  return { op: 'insert', kind: 'tenders', id, doc: { data: { id } }, index };
};
const update = (id: string, expectedRev: number): Change => ({
  op: 'update',
  kind: 'tenders',
  id,
  expectedRev,
  doc: { data: { id } },
  index,
});
const feedIds = async (store: Store, offset?: number) =>
  (await store.session().feed({ kind: 'tenders', offset, descending: false, limit: 100, mode: 'live' })).map((s) => s.id);
/** The feed once it lists `count` entries: another node's floor passes a change at that node's next heartbeat. */
async function feedOf(store: Store, count: number, offset?: number): Promise<string[]> {
  let ids: string[] = [];
  for (let round = 0; round < 300 && ids.length < count; round++) {
    ids = await feedIds(store, offset);
    if (ids.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return ids;
}

if (!url) {
  t.plan(0, 'MONGODB_URL (or a mongodb:// STORE_URL) not set');
} else {
  const admin = new MongoClient(url);
  const databases: string[] = [];
  const freshDatabase = () => {
    const name = `order_${randomUUID().slice(0, 8)}`;
    databases.push(name);
    return withDatabase(url, name);
  };
  t.teardown(async () => {
    for (const name of databases) await admin.db(name).dropDatabase();
    await admin.close();
  });

  t.test(
    'a commit held open keeps later commits of other nodes out of the feed until it lands, then both are listed in order',
    async (t) => {
      const database = freshDatabase();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let holding = false;
      let stamped!: () => void;
      const heldStamped = new Promise<void>((resolve) => (stamped = resolve));
      const beforeWrite = () => {
        if (!holding) return Promise.resolve();
        stamped();
        return gate;
      };
      const slow = await openMongoStore(database, { feedFloors: { heartbeatMs: 20, beforeWrite } });
      const fast = await openMongoStore(database, { feedFloors: { heartbeatMs: 20 } });
      t.teardown(async () => {
        await slow.close();
        await fast.close();
      });
      const before = insert();
      const [listed] = await fast.session().commit([before]);
      t.same(await feedOf(fast, 1), [before.id]);
      holding = true;
      const heldChange = insert();
      const held = slow.session().commit([heldChange]);
      await heldStamped;
      await new Promise((resolve) => setTimeout(resolve, 5)); // the later commit reads a later millisecond of the clock
      const later = insert();
      const [landed] = await fast.session().commit([later]);
      for (let i = 0; i < 10; i++) {
        t.same(await feedIds(fast, listed.seq), [], 'nothing after the held commit is listed while it is open');
        await new Promise((resolve) => setTimeout(resolve, 30)); // the slow node's heartbeats go on meanwhile
      }
      release();
      const [heldSaved] = await held;
      t.ok(heldSaved.seq < landed.seq, 'the held commit took the earlier position');
      t.same(await feedOf(fast, 2, listed.seq), [heldChange.id, later.id], 'a crawler at the earlier offset sees both, the held one first');
    },
  );

  t.test(
    "a node's own commit is below its watermark at once, even while a heartbeat has written its floor and not yet read the floors back",
    async (t) => {
      const client = new MongoClient(freshDatabase());
      t.teardown(() => client.close());
      const floors = new FeedFloors(client.db(), { heartbeatMs: 3_600_000 });
      await floors.start();
      t.teardown(() => floors.stop());
      const position = await floors.stamp(1, async ([stamped]) => stamped);
      floors.committedAt(position);
      // The heartbeat's first half (a private step, called here to stop between the two): its floor is now above the commit.
      await (floors as unknown as { publish(): Promise<void> }).publish();
      const session = client.startSession({ causalConsistency: true });
      t.teardown(() => session.endSession());
      t.ok((await floors.watermark(session)) > position, 'the commit is listed by the node it went through');
    },
  );

  t.test("a node whose clock is a minute behind holds no feed back: each heartbeat moves its clock to the others' floors", async (t) => {
    const database = freshDatabase();
    const behind = await openMongoStore(database, { feedFloors: { heartbeatMs: 20, clock: () => Date.now() - 60_000 } });
    const onTime = await openMongoStore(database, { feedFloors: { heartbeatMs: 20 } });
    t.teardown(async () => {
      await behind.close();
      await onTime.close();
    });
    const first = insert();
    await onTime.session().commit([first]);
    t.same(await feedOf(onTime, 1), [first.id], 'listed within 3 s, not after the minute the other node lags');
    const second = insert();
    await behind.session().commit([second]);
    t.same(await feedOf(behind, 2), [first.id, second.id], "the lagging node's commit after it, listed at once too");
  });

  t.test('registry_feed_delay_seconds: the lowest live floor behind the wall clock, held back by a commit in flight', async (t) => {
    const client = new MongoClient(freshDatabase());
    t.teardown(() => client.close());
    let wall = Date.now();
    let hold = false;
    let release = () => {};
    let reached = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const inFlight = new Promise<void>((resolve) => (reached = resolve));
    const beforeWrite = () => {
      if (!hold) return Promise.resolve();
      reached();
      return held;
    };
    const floors = new FeedFloors(client.db(), { heartbeatMs: 20, clock: () => wall, beforeWrite });
    await floors.start();
    t.teardown(() => floors.stop());
    const delay = async () => (await feedDelay.get()).values[0]?.value ?? -1;
    const until = async (accept: (seconds: number) => boolean) => {
      for (let i = 0; i < 250 && !accept(await delay()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      return delay();
    };
    t.ok((await until((s) => s >= 0 && s < 1)) < 1, 'idle: under a second');
    hold = true;
    const commit = floors.stamp(1, async ([position]) => position);
    await inFlight; // stamped: its position is the wall clock's of now
    wall += 60_000; // a minute passes with the commit still in flight
    const held60 = await until((s) => s >= 59);
    t.ok(held60 >= 59, `the commit in flight holds the feeds a minute back (${held60})`);
    release();
    floors.committedAt(await commit);
    t.ok((await until((s) => s < 1)) < 1, 'released: under a second again');
  });

  t.test(
    'kill -9 of a node mid-commit: other nodes keep writing, the feed moves on after the lease, the locked object is writable again',
    async (t) => {
      const database = freshDatabase();
      const leaseMs = 1000;
      const survivor = await openMongoStore(database, { feedFloors: { heartbeatMs: 20, leaseMs } });
      t.teardown(() => survivor.close());
      const locked = insert();
      const heldOn = insert();
      await survivor.session().commit([locked, heldOn]);
      const offset = Math.max(
        ...(await survivor.session().feed({ kind: 'tenders', descending: false, limit: 10, mode: 'live' })).map((s) => s.seq),
      );
      const child = spawn(
        process.execPath,
        ['--import=tsx', join(__dirname, 'fixtures/mongo-dying-writer.ts'), database, locked.id, heldOn.id],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
        child.once('exit', (code) => reject(new Error(`the dying writer exited early (${code})`)));
      });
      child.kill('SIGKILL');
      const killedAt = performance.now();

      const others = Array.from({ length: 5 }, insert);
      for (const change of others) await survivor.session().commit([change]);
      t.pass('commits of other objects land at once after the kill');

      let listed: string[] = [];
      while (performance.now() - killedAt < 20 * leaseMs && listed.length < others.length) {
        listed = await feedIds(survivor, offset);
        if (listed.length < others.length) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      t.same(
        listed,
        others.map((c) => c.id),
        'the feed lists them once the dead node is judged dead',
      );
      t.comment(`feed delay after the kill: ${Math.round(performance.now() - killedAt)} ms (lease ${leaseMs} ms)`);

      const [heldSaved] = await survivor.session().commit([update(heldOn.id, 1)]);
      t.equal(heldSaved.rev, 2, 'the object of the dead single-object commit was never locked');
      const lockStart = performance.now();
      const client = new MongoClient(database);
      t.teardown(() => client.close());
      let rev = 0;
      let unavailable = 0;
      while (!rev && performance.now() - lockStart < 120_000) {
        // SecantusDB ends expired transactions only when one is used (mongod has a periodic reaper): use one.
        await client.withSession((session) => session.withTransaction(() => client.db().collection('feedFloors').findOne({}, { session })));
        try {
          [{ rev }] = await survivor.session().commit([update(locked.id, 1)]);
        } catch (error) {
          if ((error as Error).name !== 'StoreUnavailable') throw error;
          unavailable++;
        }
      }
      t.equal(rev, 2, 'the object of the dead transaction accepts writes again');
      t.comment(
        `the dead transaction's object was writable again after ${Math.round(performance.now() - lockStart)} ms (${unavailable} answers of 503)`,
      );
    },
  );
}
