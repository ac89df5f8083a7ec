import type { ClientSession, Db, MongoClient } from 'mongodb';
import {
  isHiddenChange,
  isRestricted,
  StoreConflict,
  type CausalToken,
  type Change,
  type Numbering,
  type FeedQuery,
  type Kind,
  type ObjectView,
  type StoreSession,
  type Stored,
} from '../port';
import { listedAndRead, listingOf } from '../listing';
import { applyTimes, laterTimes, timesFromToken, tokenFromTimes, type CausalTimes } from './causal-token';
import type { ChangeWatch } from './change-watch';
import type { Found, KeptDocs } from './kept-docs';
import { listingFields, type KeptListings } from '../kept-listings';
import type { CommitBatch } from './commit-batch';
import { commitChanges } from './commit-changes';
import { nextCounterValues, type CounterBlocks } from './counters';
import type { FeedFloors } from './feed-floors';
import type { FeedWindows } from './feed-windows';
import type { Blobs } from './gridfs-blobs';
import { toStored, WITHOUT_REVISIONS, type ObjectRecord } from './object-record';
import { toStoreError } from './mongo-errors';
import { apiJson } from '../api-json';

/** A feed page's positions alone: on mongod, a read the feed indexes cover. */
const POSITIONS = { _id: 1, seq: 1 } as const;

/**
 * A StoreSession on MongoDB. Each operation runs in its own causally consistent ClientSession started at the
 * times this session has seen so far, and folds the times it saw back in: the port has no "end session", so a
 * ClientSession held for the StoreSession's lifetime would never return its server session to the pool.
 * Operations awaited one after another are causally ordered exactly as in one ClientSession.
 */
export interface MongoParts {
  client: MongoClient;
  db: Db;
  counters: CounterBlocks;
  blobs: Blobs;
  floors: FeedFloors;
  watch: ChangeWatch;
  keptDocs: KeptDocs;
  keptListings: KeptListings;
  batch: CommitBatch;
  windows: FeedWindows;
}

export function mongoSession(
  { client, db, counters, blobs, floors, watch, keptDocs, keptListings, batch, windows }: MongoParts,
  token?: CausalToken,
  author = 'unknown',
): StoreSession {
  const opened = timesFromToken(token);
  let times: CausalTimes = opened;

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

  const batched = async (change: Change, numbering?: Numbering): Promise<Stored[]> => {
    try {
      const committed = await batch.commit(change, author, numbering);
      times = laterTimes(times, committed.times);
      return [committed.stored];
    } catch (error) {
      throw toStoreError(error);
    }
  };

  const objects = (kind: Kind) => db.collection<ObjectRecord>(kind);

  /**
   * The object as this node keeps it while the change watch vouches for it, moving the session to the time it was
   * confirmed at; else read, and kept with a confirmation if the watch can give one
   * (docs/mongodb.md §Kept views on MongoDB).
   */
  const find = async (kind: Kind, id: string): Promise<Found | null> => {
    const kept = keptDocs.get(kind, id, times.operationTime);
    if (kept?.confirmed) {
      times = laterTimes(times, { operationTime: kept.confirmed.asOf });
      return kept;
    }
    const mark = watch.mark();
    const record = await causal((session) => objects(kind).findOne({ _id: id }, { session, projection: WITHOUT_REVISIONS }));
    if (!record) return null;
    const stored = toStored(kind, record);
    const confirmed = watch.confirm(mark, times.operationTime);
    keptDocs.keep(stored, confirmed);
    return { stored, confirmed };
  };

  const get = async (kind: Kind, id: string) => (await find(kind, id))?.stored ?? null;

  /**
   * A feed page's records, whole or of the `projection`'s fields: only positions below the watermark, read first in
   * the same causal session, so no commit can later appear before the last one listed; read in windows of positions
   * (feed-windows.ts).
   */
  const feedPage = async (query: FeedQuery, session: ClientSession, projection: Record<string, 0 | 1> = WITHOUT_REVISIONS) => {
    if (query.limit <= 0) return []; // MongoDB reads limit 0 as "no limit"
    const below = await floors.watermark(session);
    const filter: Record<string, unknown> = { isPublic: true };
    if (query.mode !== 'all') filter.isTest = query.mode === 'test';
    if (query.frameworkID !== undefined) filter['doc.data.frameworkID'] = query.frameworkID;
    return windows.page(query, below, (seq, limit) =>
      objects(query.kind)
        .find({ ...filter, seq }, { session, projection })
        .sort({ seq: query.descending ? -1 : 1 })
        .limit(limit)
        .toArray(),
    );
  };

  return {
    get,

    // A kept version the change watch vouches for costs no round trip (docs/mongodb.md §Kept views on MongoDB).
    async getView(kind, id, kept): Promise<ObjectView | 'unchanged' | null> {
      if (kept && watch.isCurrent(kind, id, { seq: kept.seq }, kept.confirmed, times.operationTime)) {
        times = laterTimes(times, { operationTime: kept.confirmed.asOf });
        return 'unchanged';
      }
      const found = await find(kind, id);
      if (!found) return null;
      const { stored, confirmed } = found;
      if (stored.seq === kept?.seq) {
        kept.confirmed = confirmed;
        return 'unchanged';
      }
      if (isRestricted(stored.doc)) return { ...stored, confirmed };
      return { seq: stored.seq, json: Buffer.from(apiJson({ data: stored.doc.data, config: stored.doc.config })), confirmed };
    },

    history: (kind, id) =>
      causal(async (session) => {
        const record = await objects(kind).findOne({ _id: id }, { session, projection: { revisions: 1 } });
        return record?.revisions ?? [];
      }),

    getMany: (kind, ids) =>
      causal(async (session) => {
        const records = await objects(kind)
          .find({ _id: { $in: ids } }, { session, projection: WITHOUT_REVISIONS })
          .toArray();
        const byId = new Map(records.map((r) => [r._id, r]));
        return ids.flatMap((id) => {
          const record = byId.get(id);
          return record ? [toStored(kind, record)] : [];
        });
      }),

    // One change goes with the other one-change commits of this turn (commit-batch.ts); several share a transaction.
    async commit(changes, numbering) {
      let stored: Stored[];
      try {
        // A lone hidden change takes no position, so it needs no batch's stamp (commit-changes.ts).
        stored =
          changes.length === 1 && !isHiddenChange(changes[0])
            ? await batched(changes[0], numbering)
            : await causal((s) => commitChanges(db, floors, counters, s, changes, author, numbering));
      } catch (error) {
        if (error instanceof StoreConflict) for (const { kind, id } of changes) watch.changedElsewhere(kind, id);
        throw error;
      }
      for (const object of stored) keptDocs.keep(object, watch.changedHere(object.kind, object.id, object, times.operationTime));
      return stored;
    },

    sealedBelow: (_kind, bound) => causal(async (session) => (await floors.watermark(session)) >= bound),

    feed: (query) => causal(async (session) => (await feedPage(query, session)).map((r): Stored => toStored(query.kind, r))),

    /**
     * Entries this node has read before come from memory by their positions: a page is first read as positions
     * alone, then the entries not kept, unless few of this feed's entries have lately been kept; then in one read
     * (docs/mongodb.md §Feed pages on MongoDB).
     */
    feedListing: (query) =>
      causal(async (session) => {
        const read = listedAndRead(query);
        const keptFeed = keptListings.feed(query.kind, listingFields(query));
        const projection: Record<string, 1> = { seq: 1, 'doc.config.restricted': 1 };
        for (const field of read) projection[`doc.data.${field}`] = 1;
        const listed = (records: Pick<ObjectRecord, 'seq' | 'doc'>[]) => records.map((r) => listingOf(r.seq, r.doc, query));
        if (!keptFeed.worthAsking()) {
          return keptFeed.keptWhole(listed(await feedPage(query, session, projection)));
        }
        const positions = await feedPage(query, session, POSITIONS);
        return keptFeed.page(positions, async (ids) =>
          // By id: SecantusDB, the test server, takes 40 times as long over `seq: {$in, $gte, $lte}`.
          listed(
            await objects(query.kind)
              .find({ _id: { $in: ids } }, { session, projection })
              .toArray(),
          ),
        );
      }),

    nextCounter: (name) => causal(async (session) => (await nextCounterValues(db, name, session))[0]),

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

    token: () => (times === opened && token ? token : tokenFromTimes(times)),
  };
}
