/**
 * Probes the MongoDB-compatible server CI runs against for every feature the mongo adapter relies on,
 * so a server upgrade that drops one fails here by name rather than somewhere deep in the contract suite.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { GridFSBucket, MongoClient, MongoServerError, ReadPreference, type Db } from 'mongodb';

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

if (!url) {
  t.plan(0, 'MONGODB_URL (or a mongodb:// STORE_URL) not set');
} else {
  probe(url);
}

function probe(url: string): void {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  let topologyType = 'unknown';
  client.on('topologyDescriptionChanged', (event) => {
    topologyType = event.newDescription.type;
  });
  let db: Db;

  t.before(async () => {
    await client.connect();
    db = client.db(`probe_${randomUUID().slice(0, 8)}`);
  });
  t.teardown(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  t.test('hello answers as a replica-set primary with sessions and wire version ≥ 17', async (t) => {
    const hello = await client.db('admin').command({ hello: 1 });
    t.equal(hello.isWritablePrimary, true);
    t.type(hello.setName, 'string');
    t.type(hello.logicalSessionTimeoutMinutes, 'number');
    t.ok(hello.maxWireVersion >= 17, `maxWireVersion ${hello.maxWireVersion}`);
  });

  t.test('a ?replicaSet= connection string discovers a replica-set topology', async (t) => {
    const hello = await client.db('admin').command({ hello: 1 });
    t.equal(/[?&]replicaSet=([^&]+)/.exec(url)?.[1], hello.setName);
    t.equal(topologyType, 'ReplicaSetWithPrimary');
  });

  t.test('replaceOne filtered by {_id, rev} replaces only the current revision', async (t) => {
    const col = db.collection<{ _id: string; rev: number; v: string }>('replace');
    await col.insertOne({ _id: 'a', rev: 1, v: 'one' });
    const stale = await col.replaceOne({ _id: 'a', rev: 0 }, { rev: 1, v: 'stale' });
    const fresh = await col.replaceOne({ _id: 'a', rev: 1 }, { rev: 2, v: 'two' });
    t.equal(stale.matchedCount, 0);
    t.equal(fresh.modifiedCount, 1);
    t.same(await col.findOne({ _id: 'a' }), { _id: 'a', rev: 2, v: 'two' });
  });

  t.test('inserting an existing _id fails with duplicate key code 11000', async (t) => {
    const col = db.collection<{ _id: string }>('dup');
    await col.insertOne({ _id: 'a' });
    await t.rejects(col.insertOne({ _id: 'a' }), { code: 11000 });
  });

  t.test('createIndexes builds compound indexes that find sorts and limits on', async (t) => {
    const col = db.collection<{ _id: string; isPublic: boolean; isTest: boolean; seq: number; nextCheck: number | null }>('feed');
    const names = await col.createIndexes([
      { key: { isPublic: 1, isTest: 1, seq: 1 } },
      { key: { isPublic: 1, seq: 1 } },
      { key: { nextCheck: 1 } },
    ]);
    t.equal(names.length, 3);
    await col.insertMany(
      [5, 1, 4, 2, 3].map((seq) => ({ _id: `d${seq}`, isPublic: seq !== 4, isTest: false, seq, nextCheck: seq === 2 ? null : seq * 10 })),
    );
    const page = await col
      .find({ isPublic: true, isTest: false, seq: { $gt: 1 } })
      .sort({ seq: 1 })
      .limit(2)
      .toArray();
    t.same(
      page.map((d) => d.seq),
      [2, 3],
    );
    const back = await col
      .find({ isPublic: true, seq: { $lt: 5 } })
      .sort({ seq: -1 })
      .limit(2)
      .toArray();
    t.same(
      back.map((d) => d.seq),
      [3, 2],
    );
    const due = await col
      .find({ nextCheck: { $lte: 40 } })
      .sort({ nextCheck: 1 })
      .toArray();
    t.same(
      due.map((d) => d.seq),
      [1, 3, 4],
      'null nextCheck never matches $lte',
    );
  });

  t.test('concurrent $setOnInsert upserts of one new _id create it once', async (t) => {
    const col = db.collection<{ _id: string; value: number }>('counter-create');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        col.updateOne({ _id: 'c' }, { $setOnInsert: { value: 0 } }, { upsert: true }).catch((e: MongoServerError) => {
          if (e.code !== 11000) throw e;
        }),
      ),
    );
    t.same(await col.find().toArray(), [{ _id: 'c', value: 0 }]);
  });

  t.test('concurrent findOneAndUpdate $inc on one document returns every value exactly once', async (t) => {
    const col = db.collection<{ _id: string; value: number }>('counter-inc');
    await col.insertOne({ _id: 'c', value: 0 });
    const values = await Promise.all(
      Array.from({ length: 20 }, () =>
        col.findOneAndUpdate({ _id: 'c' }, { $inc: { value: 1 } }, { returnDocument: 'after' }).then((d) => d?.value),
      ),
    );
    t.same(
      [...values].sort((a, b) => a! - b!),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  t.test('GridFS round-trips bytes and metadata', async (t) => {
    const bucket = new GridFSBucket(db, { bucketName: 'blobs' });
    const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    await new Promise<void>((resolve, reject) => {
      bucket
        .openUploadStream('b1', { metadata: { contentType: 'application/pdf' }, chunkSizeBytes: 64 * 1024 })
        .on('finish', () => resolve())
        .on('error', reject)
        .end(data);
    });
    const [file] = await bucket.find({ filename: 'b1' }).toArray();
    const chunks: Buffer[] = [];
    for await (const chunk of bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
    t.equal(file.metadata?.contentType, 'application/pdf');
    t.ok(Buffer.concat(chunks).equals(data));
  });

  t.test('a causal session gets clusterTime and operationTime that advance another session', async (t) => {
    const col = db.collection<{ _id: string }>('causal');
    const writer = client.startSession({ causalConsistency: true });
    const reader = client.startSession({ causalConsistency: true });
    try {
      await col.insertOne({ _id: 'x' }, { session: writer, writeConcern: { w: 'majority' } });
      t.equal(writer.clusterTime?.clusterTime._bsontype, 'Timestamp');
      t.equal(writer.operationTime?._bsontype, 'Timestamp');
      reader.advanceClusterTime(writer.clusterTime!);
      reader.advanceOperationTime(writer.operationTime!);
      t.ok(reader.operationTime!.equals(writer.operationTime!));
      const found = await col.findOne(
        { _id: 'x' },
        { session: reader, readConcern: { level: 'majority' }, readPreference: ReadPreference.SECONDARY_PREFERRED },
      );
      t.same(found, { _id: 'x' });
      t.ok(reader.operationTime!.greaterThanOrEqual(writer.operationTime!));
    } finally {
      await writer.endSession();
      await reader.endSession();
    }
  });

  t.test('a projected change stream delivers each write with its cluster time, new seq and transaction number', async (t) => {
    const col = db.collection<{ _id: string; seq: number }>('changes');
    const stream = db.watch([
      { $match: { 'ns.coll': 'changes' } },
      {
        $project: { ns: 1, documentKey: 1, clusterTime: 1, txnNumber: 1, 'fullDocument.seq': 1, 'updateDescription.updatedFields.seq': 1 },
      },
    ]);
    try {
      t.equal(await stream.tryNext(), null, 'the stream opens with nothing to deliver');
      const writer = client.startSession({ causalConsistency: true });
      await col.insertOne({ _id: 'c', seq: 1 }, { session: writer });
      const insertedAt = writer.operationTime;
      await col.bulkWrite([{ updateOne: { filter: { _id: 'c', seq: { $lt: 2 } }, update: { $set: { seq: 2 } }, upsert: true } }], {
        session: writer,
      });
      await writer.withTransaction(async () => {
        await col.insertOne({ _id: 'd', seq: 3 }, { session: writer });
      });
      await writer.endSession();
      const events: Record<string, any>[] = [];
      for (let attempt = 0; attempt < 50 && events.length < 3; attempt++) {
        const event = await stream.tryNext();
        if (event) events.push(event);
      }
      t.same(
        events.map((e) => [e.documentKey._id, e.fullDocument?.seq ?? e.updateDescription?.updatedFields?.seq, e.txnNumber !== undefined]),
        [
          ['c', 1, false],
          ['c', 2, false],
          ['d', 3, true],
        ],
      );
      // Not always equal on SecantusDB: while other clients' transactions commit, it may answer a write with a later
      // operation time than the write's change event carries (docs/cluster.md §What runs against MongoDB).
      t.ok(
        events[0].clusterTime && insertedAt && !events[0].clusterTime.greaterThan(insertedAt),
        "an event's cluster time is not after the write's operation time",
      );
    } finally {
      await stream.close();
    }
  });

  t.test('an unordered bulk write names each failed write and counts the updates that matched', async (t) => {
    const col = db.collection<{ _id: string; rev: number }>('bulk');
    await col.insertMany([
      { _id: 'b', rev: 2 },
      { _id: 'c', rev: 1 },
    ]);
    const error = await col
      .bulkWrite(
        [
          { insertOne: { document: { _id: 'b', rev: 1 } } },
          { updateOne: { filter: { _id: 'b', rev: 1 }, update: { $set: { rev: 2 } } } },
          { updateOne: { filter: { _id: 'c', rev: 1 }, update: { $set: { rev: 2 } } } },
          { insertOne: { document: { _id: 'fresh', rev: 1 } } },
        ],
        { ordered: false },
      )
      .then(
        () => null,
        (e: unknown) => e as { writeErrors?: { index: number; code: number }[]; result?: { matchedCount: number } },
      );
    t.same(
      error?.writeErrors?.map((e) => [e.index, e.code]),
      [[0, 11000]],
    );
    t.equal(error?.result?.matchedCount, 1, 'the update whose filter missed is not counted');
    t.equal((await col.findOne({ _id: 'fresh' }))?.rev, 1, 'the other writes stand');
  });

  t.test('majority write and read concerns are accepted', async (t) => {
    const col = db.collection<{ _id: string }>('majority', { writeConcern: { w: 'majority' }, readConcern: { level: 'majority' } });
    await col.insertOne({ _id: 'm' });
    t.same(await col.findOne({ _id: 'm' }), { _id: 'm' });
  });

  t.test('readPreference secondaryPreferred is served', async (t) => {
    const col = db.collection<{ _id: string }>('secpref', { readPreference: ReadPreference.SECONDARY_PREFERRED });
    await db.collection<{ _id: string }>('secpref').insertOne({ _id: 's' });
    t.same(await col.findOne({ _id: 's' }), { _id: 's' });
  });

  t.test('a transaction commits all writes or, aborted, none', async (t) => {
    const col = db.collection<{ _id: string }>('txn');
    await col.insertOne({ _id: 'pre' });
    const session = client.startSession({ causalConsistency: true });
    try {
      await session.withTransaction(
        async () => {
          await col.insertOne({ _id: 't1' }, { session });
          await col.insertOne({ _id: 't2' }, { session });
        },
        { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' }, readPreference: ReadPreference.PRIMARY },
      );
      await t.rejects(
        session.withTransaction(async () => {
          await col.insertOne({ _id: 't3' }, { session });
          await col.insertOne({ _id: 'pre' }, { session });
        }),
        { code: 11000 },
      );
    } finally {
      await session.endSession();
    }
    t.same(
      (await col.find().sort({ _id: 1 }).toArray()).map((d) => d._id),
      ['pre', 't1', 't2'],
    );
  });

  t.test('two open transactions writing one document: the second gets a TransientTransactionError', async (t) => {
    const col = db.collection<{ _id: string; n: number }>('conflict');
    await col.insertOne({ _id: 'seq', n: 0 });
    const a = client.startSession();
    const b = client.startSession();
    try {
      a.startTransaction({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
      b.startTransaction({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
      await col.updateOne({ _id: 'seq' }, { $inc: { n: 1 } }, { session: a });
      const error = await col.updateOne({ _id: 'seq' }, { $inc: { n: 1 } }, { session: b }).then(
        () => null,
        (e: MongoServerError) => e,
      );
      t.ok(error?.hasErrorLabel('TransientTransactionError'), `got ${error?.codeName ?? 'no error'}`);
      await a.commitTransaction();
      await b.abortTransaction().catch(() => undefined);
    } finally {
      await a.endSession();
      await b.endSession();
    }
    t.same(await col.findOne({ _id: 'seq' }), { _id: 'seq', n: 1 });
  });

  t.test('a transaction whose snapshot predates a committed write to its document conflicts', async (t) => {
    const col = db.collection<{ _id: string; n: number }>('stale');
    await col.insertOne({ _id: 'seq', n: 0 });
    const a = client.startSession();
    try {
      a.startTransaction({ readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } });
      t.same(await col.findOne({ _id: 'seq' }, { session: a }), { _id: 'seq', n: 0 }, 'snapshot established');
      await col.updateOne({ _id: 'seq' }, { $inc: { n: 1 } });
      const error = await col.updateOne({ _id: 'seq' }, { $inc: { n: 1 } }, { session: a }).then(
        () => null,
        (e: MongoServerError) => e,
      );
      t.ok(error?.hasErrorLabel('TransientTransactionError'), `got ${error?.codeName ?? 'no error'}`);
      await a.abortTransaction().catch(() => undefined);
    } finally {
      await a.endSession();
    }
    t.same(await col.findOne({ _id: 'seq' }), { _id: 'seq', n: 1 });
  });
}
