import type { ClientSession, Db, MongoClient } from 'mongodb';
import type { CausalToken, FeedQuery, Kind, StoreSession, Stored } from '../port';
import { listedAndRead, listingOf } from '../listing';
import { applyTimes, laterTimes, timesFromToken, tokenFromTimes, type CausalTimes } from './causal-token';
import { commitChanges } from './commit-changes';
import type { Blobs } from './gridfs-blobs';
import { toStored, type ObjectRecord } from './object-record';
import { isDuplicateKey, toStoreError } from './store-errors';

interface CounterRecord {
  _id: string;
  value: number;
}

/**
 * A StoreSession on MongoDB. Each operation runs in its own causally consistent ClientSession started at the
 * times this session has seen so far, and folds the times it saw back in: the port has no "end session", so a
 * ClientSession held for the StoreSession's lifetime would never return its server session to the pool.
 * Operations awaited one after another are causally ordered exactly as in one ClientSession.
 */
export function mongoSession(client: MongoClient, db: Db, blobs: Blobs, token?: CausalToken): StoreSession {
  let times: CausalTimes = timesFromToken(token);

  const causal = async <T>(operation: (session: ClientSession) => Promise<T>): Promise<T> => {
    const session = client.startSession({ causalConsistency: true });
    applyTimes(session, times);
    try {
      return await operation(session);
    } catch (error) {
      throw toStoreError(error);
    } finally {
      times = laterTimes(times, session);
      await session.endSession();
    }
  };

  const objects = (kind: Kind) => db.collection<ObjectRecord>(kind);

  /** A feed page's records, whole or of the `projection`'s fields. */
  const feedPage = async (query: FeedQuery, session: ClientSession, projection?: Record<string, 1>) => {
    if (query.limit <= 0) return []; // MongoDB reads limit 0 as "no limit"
    const filter: Record<string, unknown> = { isPublic: true };
    if (query.mode !== 'all') filter.isTest = query.mode === 'test';
    if (query.offset !== undefined) filter.seq = { [query.descending ? '$lt' : '$gt']: query.offset };
    return objects(query.kind)
      .find(filter, { session, projection })
      .sort({ seq: query.descending ? -1 : 1 })
      .limit(query.limit)
      .toArray();
  };

  const counters = db.collection<CounterRecord>('counters');
  const increment = (name: string, session: ClientSession) =>
    counters.findOneAndUpdate({ _id: name }, { $inc: { value: 1 } }, { session, returnDocument: 'after' });
  const createCounter = async (name: string, session: ClientSession) => {
    try {
      await counters.updateOne({ _id: name }, { $setOnInsert: { value: 0 } }, { session, upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // created by a concurrent first use
    }
  };

  return {
    get: (kind, id) =>
      causal(async (session) => {
        const record = await objects(kind).findOne({ _id: id }, { session });
        return record && toStored(kind, record);
      }),

    getMany: (kind, ids) =>
      causal(async (session) => {
        const records = await objects(kind).find({ _id: { $in: ids } }, { session }).toArray();
        const byId = new Map(records.map((r) => [r._id, r]));
        return ids.flatMap((id) => {
          const record = byId.get(id);
          return record ? [toStored(kind, record)] : [];
        });
      }),

    commit: (changes) => causal((session) => commitChanges(db, session, changes)),

    feed: (query) =>
      causal(async (session) => (await feedPage(query, session)).map((r): Stored => toStored(query.kind, r))),

    feedListing: (query) =>
      causal(async (session) => {
        const projection: Record<string, 1> = { seq: 1, 'doc.config.restricted': 1 };
        for (const field of listedAndRead(query)) projection[`doc.data.${field}`] = 1;
        return (await feedPage(query, session, projection)).map((r) => listingOf(r.seq, r.doc, query));
      }),

    // Not one $inc upsert: when first uses race, SecantusDB 0.7.0b3 can apply an upserting increment yet return
    // null, and retrying it would skip a number. Creating the counter apart keeps every increment's answer.
    nextCounter: (name) =>
      causal(async (session) => {
        let counter = await increment(name, session);
        if (!counter) {
          await createCounter(name, session);
          counter = await increment(name, session);
        }
        if (!counter) throw new Error(`counter ${name} vanished after it was created`);
        return counter.value;
      }),

    putBlob: async (blob) => {
      try {
        await blobs.put(blob);
      } catch (error) {
        throw toStoreError(error);
      }
    },

    getBlob: async (id) => {
      try {
        return await blobs.get(id);
      } catch (error) {
        throw toStoreError(error);
      }
    },

    token: () => tokenFromTimes(times),
  };
}
