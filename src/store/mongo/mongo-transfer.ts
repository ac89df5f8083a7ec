import { MongoBulkWriteError, ReadPreference, type Db } from 'mongodb';
import { KINDS, StoreConflict, type CounterValue, type Kind, type StoreTransfer, type StoredRecord } from '../port';
import type { Blobs } from './gridfs-blobs';
import type { ObjectRecord } from './object-record';
import { toStoreError } from './mongo-errors';

/** The server's code for a write that meets a unique index. */
const DUPLICATE_KEY = 11000;

/** The collection of counters (counters.ts). */
const COUNTERS = 'counters';

const toRecord = (kind: Kind, { _id, rev, seq, doc, isPublic, isTest, nextCheck, revisions }: ObjectRecord): StoredRecord => ({
  kind,
  id: _id,
  rev,
  seq,
  doc,
  index: { isPublic, isTest, nextCheck },
  revisions: revisions ?? [],
});

/**
 * Puts one kind's records: one unordered bulk write of upserts, each landing only where the object is absent or at
 * an earlier revision. Where it holds the same or a later revision the upsert's insert meets a unique index and the
 * record is skipped; one that meets it otherwise holds a position another object holds, a conflict. Which index a
 * duplicate names is not told apart: SecantusDB names `seq` where mongod names `_id`, so the object is read instead.
 */
async function putRecords(db: Db, kind: Kind, records: StoredRecord[]): Promise<number> {
  const objects = db.collection<ObjectRecord>(kind);
  const operations = records.map((r) => ({
    replaceOne: {
      filter: { _id: r.id, rev: { $lt: r.rev } },
      replacement: { rev: r.rev, seq: r.seq, doc: r.doc, ...r.index, revisions: r.revisions },
      upsert: true,
    },
  }));
  try {
    const result = await objects.bulkWrite(operations, { ordered: false });
    return result.upsertedCount + result.modifiedCount;
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError) || !Array.isArray(error.writeErrors)) throw error;
    const refused = error.writeErrors.map((writeError) => {
      if (writeError.code !== DUPLICATE_KEY) throw error;
      return records[writeError.index];
    });
    const held = await objects
      .find({ _id: { $in: refused.map((r) => r.id) } }, { projection: { rev: 1 }, readPreference: ReadPreference.primary })
      .toArray();
    const revs = new Map(held.map((h) => [h._id, h.rev]));
    if (refused.some((r) => (revs.get(r.id) ?? 0) < r.rev)) throw new StoreConflict('exists');
    return error.result.upsertedCount + error.result.modifiedCount;
  }
}

/**
 * The cluster store read out and put back (port.ts `StoreTransfer`): objects by each kind's unique position index,
 * read from the primary; counters raised with `$max`; blobs through GridFS. Nothing here moves the nodes' clocks:
 * their positions follow the wall clock, past every position of a copied store (docs/operations.md §Migration).
 */
export function mongoTransfer(db: Db, blobs: Blobs): StoreTransfer {
  const guard = async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error);
    }
  };
  const counters = () => db.collection<{ _id: string; value: number }>(COUNTERS);

  return {
    count: () =>
      guard(async () => {
        const counts = await Promise.all(
          KINDS.map((kind) => db.collection(kind).countDocuments({}, { readPreference: ReadPreference.primary })),
        );
        return { ...(Object.fromEntries(KINDS.map((kind, i) => [kind, counts[i]])) as Record<Kind, number>), blobs: await blobs.count() };
      }),

    exportRecords: (kind, after, limit) =>
      guard(async () => {
        const records = await db
          .collection<ObjectRecord>(kind)
          .find(after === undefined ? {} : { seq: { $gt: after } }, { readPreference: ReadPreference.primary })
          .sort({ seq: 1 })
          .limit(limit)
          .toArray();
        return records.map((r) => toRecord(kind, r));
      }),

    importRecords: (records) =>
      guard(async () => {
        let put = 0;
        for (const kind of KINDS) {
          const ofKind = records.filter((r) => r.kind === kind);
          if (ofKind.length) put += await putRecords(db, kind, ofKind);
        }
        return put;
      }),

    exportBlobs: (after, limit) =>
      guard(async () => {
        const found = await Promise.all((await blobs.ids(after, limit)).map((id) => blobs.get(id)));
        return found.filter((blob) => blob !== null);
      }),

    importBlobs: (list) =>
      guard(async () => {
        let put = 0;
        for (const blob of list) {
          if (await blobs.has(blob.id)) continue;
          await blobs.put(blob);
          put++;
        }
        return put;
      }),

    exportCounters: () =>
      guard(async () => {
        const records = await counters().find({}, { readPreference: ReadPreference.primary }).sort({ _id: 1 }).toArray();
        return records.map((r): CounterValue => ({ name: r._id, value: r.value }));
      }),

    importCounters: (list) =>
      guard(async () => {
        let raised = 0;
        for (const { name, value } of list) {
          const result = await counters().updateOne({ _id: name }, { $max: { value } }, { upsert: true });
          raised += result.upsertedCount + result.modifiedCount;
        }
        return raised;
      }),
  };
}
