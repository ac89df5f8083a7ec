import t from 'tap';
import { Binary, Long, MongoClient, Timestamp, type ClientSession, type ClusterTime } from 'mongodb';
import { applyTimes, laterTimes, timesFromToken, tokenFromTimes } from '../../src/store/mongo/causal-token';

// Real driver sessions; they need no server until an operation runs, so these tests always run.
const client = new MongoClient('mongodb://127.0.0.1:9/?replicaSet=offline', { serverSelectionTimeoutMS: 100 });
const sessions: ClientSession[] = [];
const newSession = () => {
  const session = client.startSession({ causalConsistency: true });
  sessions.push(session);
  return session;
};
t.teardown(async () => {
  for (const s of sessions) await s.endSession();
  await client.close();
});

const clusterTime = (t: number, keyId: Long = Long.fromNumber(0)): ClusterTime => ({
  clusterTime: new Timestamp({ t, i: 1 }),
  signature: { hash: Binary.createFromBase64('AAECAwQFBgcICQoLDA0ODxAREhM=', 0), keyId },
});

/** What a session would carry after an operation answered at time `at`. */
const sessionAt = (at: number, keyId?: Long) => {
  const session = newSession();
  session.advanceClusterTime(clusterTime(at, keyId));
  session.advanceOperationTime(new Timestamp({ t: at, i: 1 }));
  return session;
};

const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value));

t.test('a token survives JSON and advances a fresh session to the same cluster and operation time', async (t) => {
  const source = sessionAt(1_795_000_000);
  const target = newSession();
  applyTimes(target, timesFromToken(viaJson(tokenFromTimes(laterTimes({}, source)))));
  t.ok(target.operationTime?.equals(source.operationTime!));
  t.ok(target.clusterTime?.clusterTime.equals(source.clusterTime!.clusterTime));
  t.same(target.clusterTime?.signature?.hash.toString('base64'), source.clusterTime?.signature?.hash.toString('base64'));
});

t.test('a 64-bit signature keyId round-trips exactly', async (t) => {
  const keyId = Long.fromString('7412345678901234567');
  const target = newSession();
  applyTimes(target, timesFromToken(viaJson(tokenFromTimes(laterTimes({}, sessionAt(10, keyId))))));
  t.equal(Long.fromValue(target.clusterTime!.signature!.keyId).toString(), '7412345678901234567');
});

t.test('a session that has seen nothing gives null times, and that token leaves a session untouched', async (t) => {
  const token = tokenFromTimes(laterTimes({}, newSession()));
  t.same(token, { clusterTime: null, operationTime: null });
  const target = newSession();
  applyTimes(target, timesFromToken(token));
  t.equal(target.clusterTime, undefined);
  t.equal(target.operationTime, undefined);
});

t.test('malformed or foreign tokens are ignored without throwing', async (t) => {
  for (const token of [
    undefined,
    {},
    { seq: 12 },
    { clusterTime: 'x', operationTime: 5 },
    { clusterTime: { clusterTime: 1 } },
    { operationTime: { $timestamp: 'bad' } },
  ]) {
    const target = newSession();
    t.doesNotThrow(() => applyTimes(target, timesFromToken(token)));
    t.equal(target.operationTime, undefined, JSON.stringify(token));
  }
});

t.test('a relaxed-EJSON token with a plain-number keyId (as the reference writes) is accepted', async (t) => {
  const token = {
    operationTime: { $timestamp: { t: 20, i: 3 } },
    clusterTime: {
      clusterTime: { $timestamp: { t: 20, i: 3 } },
      signature: { hash: { $binary: { base64: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=', subType: '00' } }, keyId: 0 },
    },
  };
  const target = newSession();
  applyTimes(target, timesFromToken(token));
  t.ok(target.clusterTime?.clusterTime.equals(new Timestamp({ t: 20, i: 3 })));
  t.ok(target.operationTime?.equals(new Timestamp({ t: 20, i: 3 })));
});

t.test('merging keeps the later times whichever side holds them', async (t) => {
  const older = laterTimes({}, sessionAt(100));
  const newer = sessionAt(200);
  t.equal(laterTimes(older, newer).operationTime?.t, 200);
  t.equal(laterTimes(older, newer).clusterTime?.clusterTime.t, 200);
  const newerTimes = laterTimes({}, sessionAt(300));
  t.equal(laterTimes(newerTimes, sessionAt(150)).operationTime?.t, 300);
  t.equal(laterTimes(newerTimes, sessionAt(150)).clusterTime?.clusterTime.t, 300);
});

t.test('a token with an operation time but no cluster time (a server that gossips none) still advances the operation time', async (t) => {
  const target = newSession();
  t.doesNotThrow(() => applyTimes(target, timesFromToken({ clusterTime: null, operationTime: { $timestamp: { t: 30, i: 2 } } })));
  t.equal(target.clusterTime, undefined);
  t.ok(target.operationTime?.equals(new Timestamp({ t: 30, i: 2 })));
  t.same(tokenFromTimes(laterTimes({}, target)).clusterTime, null, 'and the token it gives back has none either');
});

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

t.test(
  'against the server: a write on one client, its token through JSON, a causal read on another client',
  { skip: url ? false : 'MONGODB_URL (or a mongodb:// STORE_URL) not set' },
  async (t) => {
    const [nodeA, nodeB] = [new MongoClient(url!), new MongoClient(url!)];
    const collection = (client: MongoClient) => client.db(`causal_${process.pid}`).collection<{ _id: string }>('objects');
    t.teardown(async () => {
      await collection(nodeA)
        .drop()
        .catch(() => undefined);
      await Promise.all([nodeA.close(), nodeB.close()]);
    });
    const writer = nodeA.startSession({ causalConsistency: true });
    await collection(nodeA).insertOne({ _id: 'w' }, { session: writer, writeConcern: { w: 'majority' } });
    const token = viaJson(tokenFromTimes(laterTimes({}, writer)));
    await writer.endSession();
    t.ok(token.clusterTime && token.operationTime, 'the server gave both times');

    const reader = nodeB.startSession({ causalConsistency: true });
    applyTimes(reader, timesFromToken(token));
    const found = await collection(nodeB).findOne(
      { _id: 'w' },
      { session: reader, readConcern: { level: 'majority' }, readPreference: 'secondaryPreferred' },
    );
    const after = laterTimes(timesFromToken(token), reader);
    await reader.endSession();
    t.same(found, { _id: 'w' });
    t.ok(after.operationTime!.greaterThanOrEqual(timesFromToken(token).operationTime!), 'the reader never goes back before the token');
  },
);
