/**
 * The fault tier (docs/cluster.md §Faults exercised): MongoDB's test commands on a SecantusDB started for this file
 * alone with --enable-test-commands (a step-down or a blocked connection is server-wide, and would disturb the other
 * test files sharing CI's server). Two API nodes share one database; each fault is scoped by `appName` to node A or
 * hits the whole server, while writers on both nodes and a crawler on node B run. After each: every acknowledged
 * write is read back through the other node with the writer's cookie, every acknowledged create is listed by the
 * crawler, nothing but 2xx and the documented 503 was answered, and the consistency checker's clients
 * (`npm run consistency`), sending each request to either node, saw no violation of a session guarantee meanwhile.
 */
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MongoClient, type Document } from 'mongodb';
import { FEED_DELAY_BOUND_MS } from '../../src/store/mongo/feed-floors';
import type { Membership } from '../../src/membership/membership';
import { StoreUnavailable, type Change } from '../../src/store/port';
import type { ObjectRecord } from '../../src/store/mongo/object-record';
import { readBack } from '../../src/store/mongo/read-back';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { newShared, SimulatedClient, type Shared } from '../../scripts/consistency/simulated-client';
import { aBudget, aPlan } from '../fixtures/plans';
import { CookieJar, request, startTestServer, type Reply, type TestServer } from '../fixtures/server';

const SCRIPT = join(__dirname, '../../scripts/mongo-test-server.sh');
const API = '/api/2.5';
/** Node A's and B's server selection timeout: a step-down longer than it reaches brokers as 503. */
const SELECTION_MS = 2000;
/**
 * Node A answers 503 to a request unanswered after this long (REQUEST_TIMEOUT_MS): past the 5 s a write whose
 * connection was cut waits before it is read back (docs/cluster.md §Outcome unknown), as the default 20 s is.
 */
const REQUEST_TIMEOUT_MS = 6000;

// Each case waits out its fault (step-downs, a 5 s read-back of a cut write): about 100 s alone, more beside the
// MongoDB suite's other files.
t.setTimeout(300_000);

if (!process.env.MONGODB_URL) {
  t.plan(0, 'MONGODB_URL not set: the fault tier runs with the MongoDB suite, on a server of its own');
} else {
  const serverUrl = execFileSync(SCRIPT, ['--test-commands', '--background'], { encoding: 'utf8' }).trim();
  const port = /:(\d+)\//.exec(serverUrl)![1];
  const admin = new MongoClient(serverUrl);
  const database = `faults_${randomUUID().slice(0, 8)}`;
  const nodeUrl = (app: string) => `${serverUrl.replace('/?', `/${database}?`)}&appName=${app}&serverSelectionTimeoutMS=${SELECTION_MS}`;
  let a: TestServer;
  let b: TestServer;
  // Both nodes are alive to each other: a cookie of one is honoured by the other.
  const pair = (selfId: string): Membership => ({
    selfId,
    isAlive: async (id) => id === 'a' || id === 'b',
    start: async () => {},
    stop: async () => {},
  });
  t.before(async () => {
    a = await startTestServer({
      storeUrl: nodeUrl('nodeA'),
      env: { NODE_ID: 'a', REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
      membership: pair,
    });
    b = await startTestServer({ storeUrl: nodeUrl('nodeB'), env: { NODE_ID: 'b' }, membership: pair });
  });
  t.teardown(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await admin.close();
    execFileSync(SCRIPT, ['--stop', port]);
  });

  const failPoint = (data: Document, mode: Document | 'off' | 'alwaysOn' = { times: 1 }) =>
    admin.db('admin').command({ configureFailPoint: 'failCommand', mode, data });

  /** What the load saw: statuses answered, creates acknowledged (id, writer's cookie, title last acknowledged). */
  interface Load {
    statuses: number[];
    /** How many 503s said the write's outcome was unknown (docs/cluster.md §Outcome unknown); the rest were not made. */
    outcomeUnknown: number;
    acknowledged: { id: string; jar: CookieJar; title: string; node: TestServer }[];
    ms: number[];
    /** What the consistency checker's clients saw meanwhile. */
    sessions: Shared;
  }

  /**
   * The consistency checker's clients (`npm run consistency`: frameworks created, patched and read, each request to
   * either node) for as long as `during` runs, and at least a few operations each; what they saw.
   */
  async function sessionsDuring(during: Promise<unknown>): Promise<Shared> {
    const sessions = newShared();
    let running = true;
    const clients = Array.from({ length: 4 }, (_, i) => new SimulatedClient(i, () => [a.url, b.url], sessions));
    const runs = clients.map((client) => client.run((done) => !running && done >= 5));
    await during.finally(() => (running = false));
    await Promise.all(runs);
    return sessions;
  }

  const noViolation = (t: Test, sessions: Shared, what: string) =>
    t.equal(
      sessions.violations.total(),
      0,
      `${what}: ${Object.values(sessions.operations).reduce((x, y) => x + y, 0)} checker operations, no session guarantee broken ${JSON.stringify(sessions.violations.examples)}`,
    );

  /** Writers on both nodes (create, then an owner PATCH) and a crawler on node B while `fault` runs. */
  async function underLoad(fault: () => Promise<unknown>, rounds = 3): Promise<Load> {
    const load: Omit<Load, 'sessions'> = { statuses: [], outcomeUnknown: 0, acknowledged: [], ms: [] };
    let writing = true;
    let faulting = true;
    const timed = async (call: () => Promise<Reply>) => {
      // Each request a millisecond later on both nodes' clocks, so feed positions differ as on real clocks.
      for (const node of [a, b]) node.clock.advance(1);
      const started = Date.now();
      const reply = await call();
      load.statuses.push(reply.status);
      if (reply.status === 503 && (reply.body as { errors: { description: string }[] }).errors[0].description !== 'Service Unavailable') {
        load.outcomeUnknown++;
      }
      load.ms.push(Date.now() - started);
      return reply;
    };
    const writer = async (node: TestServer) => {
      const jar = new CookieJar();
      for (let i = 0; i < rounds || faulting; i++) {
        const created = await timed(() => request(node.url, 'POST', `${API}/plans`, { key: 'broker', jar, body: { data: aPlan() } }));
        if (created.status !== 201) continue;
        const body = created.body as { data: { id: string; budget: { description: string } }; access: { token: string } };
        const entry = { id: body.data.id, jar, title: body.data.budget.description, node };
        load.acknowledged.push(entry);
        const title = `patched ${i}`;
        const patched = await timed(() =>
          request(node.url, 'PATCH', `${API}/plans/${entry.id}`, {
            key: 'broker',
            jar,
            token: body.access.token,
            body: { data: { budget: aBudget({ description: title }) } },
          }),
        );
        if (patched.status === 200) entry.title = title;
      }
    };
    const crawler = (async () => {
      while (writing) await timed(() => request(b.url, 'GET', `${API}/plans?limit=5&descending=1`));
    })();
    const sessions = sessionsDuring(
      Promise.all([writer(a), writer(a), writer(b), writer(b), fault().finally(() => (faulting = false))]).finally(() => (writing = false)),
    );
    await crawler;
    return { ...load, sessions: await sessions };
  }

  /**
   * Every create is listed, by a crawler following next_page from the start. One page holds all of them: an offset
   * names a position to 10 µs while positions step by 1 µs, so a page boundary between two positions of one 10 µs
   * can skip one (the offset rounding, changed on another branch).
   */
  async function crawlAll(): Promise<Set<string>> {
    const seen = new Set<string>();
    let path = `${API}/plans?limit=1000`;
    for (;;) {
      const page = await request(b.url, 'GET', path);
      if (page.status !== 200) throw new Error(`feed answered ${page.status}`);
      for (const entry of page.body.data as { id: string }[]) seen.add(entry.id);
      if (page.body.data.length === 0) return seen;
      path = `${API}/plans?limit=1000&offset=${page.body.next_page.offset}`;
    }
  }

  /** 0 writes lost, 0 session violations, 0 feed changes skipped, only 2xx and 503. */
  async function checkAfter(t: Test, load: Load, allowed = [200, 201, 503]) {
    t.same(
      load.statuses.filter((status) => !allowed.includes(status)),
      [],
      `only ${allowed.join(', ')} answered`,
    );
    let violations = 0;
    for (const entry of load.acknowledged) {
      const other = entry.node === a ? b : a;
      const read = await request(other.url, 'GET', `${API}/plans/${entry.id}`, { jar: entry.jar });
      if (read.status !== 200 || read.body.data.budget.description !== entry.title) violations++;
    }
    t.equal(violations, 0, `each of ${load.acknowledged.length} acknowledged writes read back on the other node`);
    noViolation(t, load.sessions, 'during the fault');
    // Time passes, as it does for real clocks: a node's floor rises with its clock (docs/cluster.md §Faults exercised),
    // and manual clocks left where the load stopped would hold a node's floor below the other's last commit for good.
    for (const node of [a, b]) node.clock.advance(1000);
    let missing = load.acknowledged.length;
    // The writers' last commits are listed once their nodes publish floors above them, at their next heartbeat.
    for (const until = Date.now() + FEED_DELAY_BOUND_MS + 5000; missing > 0 && Date.now() < until;) {
      const seen = await crawlAll();
      missing = load.acknowledged.filter((entry) => !seen.has(entry.id)).length;
      if (missing) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.equal(missing, 0, 'every acknowledged create is in the feed');
  }

  const anIndex = { isPublic: true, isTest: false, nextCheck: null };
  const ERRORS: [string, Document][] = [
    ['NotWritablePrimary', { errorCode: 10107, errorLabels: ['RetryableWriteError'] }],
    ['ShutdownInProgress', { errorCode: 91 }],
    ['closeConnection', { closeConnection: true }],
  ];
  // insert: single commits, commit batches and GridFS chunks; update: PATCH commits and the feed floors heartbeat;
  // findAndModify: counters; find: reads and feed pages.
  const HTTP_COMMANDS = ['insert', 'update', 'findAndModify', 'find'];

  t.test('each error once on each command of node A: the driver retries, every request succeeds', async (t) => {
    for (const [name, error] of ERRORS) {
      const load = await underLoad(() => failPoint({ failCommands: HTTP_COMMANDS, appName: 'nodeA', ...error }, { times: 1 }));
      await failPoint({}, 'off');
      await checkAfter(t, load, [200, 201]);
      t.pass(`${name}: ${load.statuses.length} requests, slowest ${Math.max(...load.ms)} ms`);
    }
  });

  t.test('each error that persists on node A: 503 in the error format, never a 500, and node A serves again', async (t) => {
    for (const [name, error] of ERRORS) {
      const load = await underLoad(() => failPoint({ failCommands: HTTP_COMMANDS, appName: 'nodeA', ...error }, { times: 30 }));
      await failPoint({}, 'off');
      await checkAfter(t, load);
      const served = await request(a.url, 'POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } });
      t.equal(served.status, 201, `${name}: node A serves again once it passes`);
      t.pass(
        `${name}: ${load.statuses.filter((s) => s === 503).length} of ${load.statuses.length} answered 503, ${load.outcomeUnknown} of them outcome unknown`,
      );
    }
  });

  t.test('a change stream that fails: kept views stop vouching, nothing stale is served, it comes back by itself', async (t) => {
    const created = await request(a.url, 'POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } });
    const { id } = created.body.data as { id: string };
    const token = created.body.access.token as string;
    const writer = new CookieJar();
    const readOnB = async (jar = new CookieJar()) =>
      (await request(b.url, 'GET', `${API}/plans/${id}`, { jar })).body.data.budget.description as string;
    /** A reader without a session sees another node's change once node B learns of it: its stream, or its failure. */
    const eventually = async (description: string) => {
      for (const until = Date.now() + 3000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50)))
        if ((await readOnB()) === description) return true;
      return false;
    };
    await readOnB();
    await readOnB(); // kept by node B now
    let stopSessions = () => {};
    const sessions = sessionsDuring(new Promise<void>((resolve) => (stopSessions = resolve)));
    t.teardown(() => stopSessions());
    for (const [name, data] of ERRORS) {
      for (const phase of ['under a failing stream', 'after the stream is back']) {
        // Node B's stream fails on every command until switched off: resumable errors and cut connections.
        if (phase === 'under a failing stream')
          await failPoint({ failCommands: ['getMore', 'aggregate'], appName: 'nodeB', ...data }, { times: 1000 });
        else await failPoint({}, 'off');
        const description = `changed ${phase} (${name})`;
        const patched = await request(a.url, 'PATCH', `${API}/plans/${id}`, {
          key: 'broker',
          token,
          jar: writer,
          body: { data: { budget: aBudget({ description }) } },
        });
        t.equal(patched.status, 200, `${name}, ${phase}: written on node A`);
        t.equal(await readOnB(writer), description, `${name}, ${phase}: the writer's session reads it on node B at once`);
        t.ok(await eventually(description), `${name}, ${phase}: a reader without a session within 3 s`);
      }
    }
    stopSessions();
    noViolation(t, await sessions, 'while the stream failed and came back');
  });

  t.test('a step-down shorter than the selection timeout: writes wait and succeed; longer: 503 until it ends', async (t) => {
    for (const seconds of [1, 3]) {
      const started = Date.now();
      // The load goes on until the step-down is over.
      const load = await underLoad(async () => {
        await admin.db('admin').command({ replSetStepDown: seconds, force: true });
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      });
      await checkAfter(t, load);
      const served = await request(a.url, 'POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } });
      t.equal(served.status, 201, `${seconds} s: both nodes serve again by themselves`);
      const refused = load.statuses.filter((s) => s === 503).length;
      if (seconds === 3) t.ok(refused > 0, 'a step-down longer than the selection timeout reaches brokers as 503');
      t.ok(Math.max(...load.ms) < SELECTION_MS + 3000, 'no request waits much past the selection timeout');
      t.pass(
        `${seconds} s step-down: ${refused} of ${load.statuses.length} answered 503 (${load.outcomeUnknown} outcome unknown), slowest ${Math.max(...load.ms)} ms, load ${Date.now() - started} ms`,
      );
    }
  });

  t.test('a write whose outcome is unknown to the node is acknowledged if it landed, never made twice', async (t) => {
    for (const [name, data] of [
      [
        'writeConcernError',
        {
          failCommands: ['insert'],
          writeConcernError: { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out' },
        },
      ],
      ['two dropped connections', { failCommands: ['insert'], closeConnection: true }],
    ] as const) {
      await failPoint({ ...data, appName: 'nodeA' }, { times: name === 'writeConcernError' ? 1 : 2 });
      const before = await admin.db(database).collection('plans').countDocuments();
      const created = await request(a.url, 'POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } });
      const landed = (await admin.db(database).collection('plans').countDocuments()) - before;
      if (created.status === 201) t.equal(landed, 1, `${name}: 201, the plan stored once`);
      else {
        t.equal(created.status, 503, `${name}: 503 in the error format`);
        t.equal(created.body.status, 'error');
        t.equal(landed, 0, `${name}: 503 only when nothing was stored, so the broker's retry makes one plan`);
      }
      t.pass(`${name}: broker got ${created.status}`);
    }
    await failPoint({}, 'off');

    // The insert's connection cut and no read answering: the node cannot know, and says so.
    await failPoint({ failCommands: ['insert', 'find'], appName: 'nodeA', closeConnection: true }, 'alwaysOn');
    const before = await admin.db(database).collection('plans').countDocuments();
    const started = Date.now();
    const unknown = await request(a.url, 'POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } });
    const waited = Date.now() - started;
    await failPoint({}, 'off');
    t.equal(unknown.status, 503);
    t.match(
      unknown.body.errors,
      [{ name: 'store', description: /did not confirm whether the change was made/ }],
      'the 503 says the outcome is unknown',
    );
    t.ok(waited >= SELECTION_MS, `after waiting ${waited} ms for a primary to read back from`);
    t.equal((await admin.db(database).collection('plans').countDocuments()) - before, 0, 'the cut insert did not land');
  });

  t.test('a read-back that finds no primary is tried again, then says the outcome is unknown', async (t) => {
    // The node's read of a write of unknown outcome (docs/cluster.md §Outcome unknown), on a client of its own.
    const client = new MongoClient(`${serverUrl}&appName=readBack`);
    const objects = client.db(database).collection<ObjectRecord>('plans');
    const change: Change = { op: 'insert', kind: 'plans', id: randomUUID().replace(/-/g, ''), doc: { data: {} }, index: anIndex };
    await objects.insertOne({ _id: change.id, rev: 1, seq: 7, doc: change.doc, ...anIndex, revisions: [] });
    const written = [{ change, position: 7 }];
    const refused = { failCommands: ['find'], appName: 'readBack', errorCode: 91 };
    // Each find fails twice (the driver's retry too): the read-back that gave up at the first failure said "not written".
    await failPoint(refused, { times: 4 });
    t.same(
      await readBack(objects, written, { sentAt: Date.now(), error: 'the write failed', waitMs: SELECTION_MS }),
      ['written'],
      'read back after two failed reads: written',
    );
    t.same(
      await readBack(objects, [{ change, position: 8 }], { sentAt: Date.now(), error: 'the write failed', waitMs: SELECTION_MS }),
      ['missing'],
      'at another position: not written',
    );
    await failPoint(refused, 'alwaysOn');
    const started = Date.now();
    const unknown = await readBack(objects, written, { sentAt: Date.now(), error: 'the write failed', waitMs: SELECTION_MS });
    await failPoint({}, 'off');
    t.ok(unknown[0] instanceof StoreUnavailable && unknown[0].outcomeUnknown, 'no primary answered: the outcome is unknown');
    t.ok(Date.now() - started >= SELECTION_MS, `it tried for the selection timeout (${Date.now() - started} ms)`);
    await client.close();
  });

  t.test('a write cut while it waits on the server is read back only once it can no longer land', async (t) => {
    // A client that gives up on a reply after 400 ms: its insert's connection is cut while the server still holds it.
    const cut = await openMongoStore(`${serverUrl.replace('/?', `/${database}?`)}&appName=cut&socketTimeoutMS=400`);
    const change: Change = { op: 'insert', kind: 'plans', id: randomUUID().replace(/-/g, ''), doc: { data: {} }, index: anIndex };
    // Both attempts (the driver's retry too) wait 1.5 s on the server, then run: the first lands after the node gave up.
    await failPoint({ failCommands: ['insert'], appName: 'cut', blockConnection: true, blockTimeMS: 1500 }, { times: 2 });
    const started = Date.now();
    const outcome = await cut
      .session()
      .commit([change])
      .then(
        () => 'committed',
        (e: unknown) => (e instanceof StoreUnavailable ? `StoreUnavailable${e.outcomeUnknown ? ', outcome unknown' : ''}` : String(e)),
      );
    const waited = Date.now() - started;
    await failPoint({}, 'off');
    // Past both attempts' 1.5 s on the server.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 2500 - Date.now())));
    const stored = await admin
      .db(database)
      .collection('plans')
      .countDocuments({ _id: change.id as unknown as Document });
    t.equal(stored, 1, 'the insert landed after its connection was cut');
    t.equal(outcome, 'committed', `so the node answers it committed (after ${waited} ms), not "not written"`);
    await cut.close();
  });

  t.test('a transaction, a GridFS file and a counter block: retried once, StoreUnavailable or done past that', async (t) => {
    const change = (): Change => ({
      op: 'insert',
      kind: 'contracts',
      id: randomUUID().replace(/-/g, ''),
      doc: { data: {} },
      index: anIndex,
    });
    const operations: [string, string, () => Promise<unknown>][] = [
      ['transaction', 'commitTransaction', () => a.store.session().commit([change(), change()])],
      ['GridFS', 'insert', () => a.store.session().putBlob({ id: randomUUID(), contentType: 'text/plain', data: Buffer.from('x') })],
      ['counter block', 'findAndModify', () => a.store.session().nextCounter(`faults:${randomUUID()}`)],
    ];
    for (const [name, command, operation] of operations)
      for (const [error, data] of ERRORS)
        for (const times of [1, 2]) {
          await failPoint({ failCommands: [command], appName: 'nodeA', ...data }, { times });
          const outcome = await operation().then(
            () => 'done',
            (e: unknown) => (e instanceof StoreUnavailable ? 'StoreUnavailable' : String(e)),
          );
          await failPoint({}, 'off');
          if (times === 1) t.equal(outcome, 'done', `${name}, ${error} once: retried`);
          else t.ok(['done', 'StoreUnavailable'].includes(outcome), `${name}, ${error} twice: ${outcome}`);
        }
  });

  t.test('a slow store (blockConnection): 503 after REQUEST_TIMEOUT_MS, the event loop stays free, nothing stale', async (t) => {
    const created = await request(b.url, 'POST', `${API}/plans`, { key: 'broker', body: { data: aPlan() } });
    const { id } = created.body.data as { id: string };
    await failPoint(
      { failCommands: ['find'], appName: 'nodeA', blockConnection: true, blockTimeMS: REQUEST_TIMEOUT_MS + 2000 },
      { times: 5 },
    );
    const started = Date.now();
    const slow = request(a.url, 'GET', `${API}/plans/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const health = Date.now();
    t.equal((await request(a.url, 'GET', '/healthz')).status, 200);
    t.ok(Date.now() - health < 1000, `node A answers /healthz in ${Date.now() - health} ms while its store is blocked`);
    const answered = await slow;
    const waited = Date.now() - started;
    t.equal(answered.status, 503, 'the read gets 503 in the error format');
    t.equal(answered.body.status, 'error');
    t.ok(waited >= REQUEST_TIMEOUT_MS && waited < REQUEST_TIMEOUT_MS + 2000, `after ${waited} ms`);
    await failPoint({}, 'off');
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS));
    const read = await request(a.url, 'GET', `${API}/plans/${id}`);
    t.equal(read.status, 200, 'served again once the store answers');
    t.equal(read.body.data.id, id);
  });
}
