import { MongoClient, ReadPreference, type Db } from 'mongodb';
import { KINDS, type Due, type Store } from '../port';
import { CommitBatch } from './commit-batch';
import { ChangeWatch, type ChangeWatchOptions } from './change-watch';
import { CounterBlocks } from './counters';
import { FeedFloors, type FeedFloorsOptions } from './feed-floors';
import { FeedWindows } from './feed-windows';
import { KeptDocs } from './kept-docs';
import { KeptListings } from '../kept-listings';
import { gridfsBlobs } from './gridfs-blobs';
import { mongoSession } from './mongo-session';
import { mongoTransfer } from './mongo-transfer';
import type { ObjectRecord } from './object-record';
import { toStoreError } from './mongo-errors';

export interface MongoStoreOptions {
  /** Where reads outside transactions go (default `secondaryPreferred`); causal sessions keep them fresh enough. */
  readPreference?: string;
  /**
   * How long to look for a suitable server before an operation fails as StoreUnavailable (default 10 s, or the URL's
   * `serverSelectionTimeoutMS`).
   */
  serverSelectionTimeoutMS?: number;
  /** Feed positions and the node's lease (docs/mongodb.md §Feed ordering on MongoDB). */
  feedFloors?: FeedFloorsOptions;
  /** The change stream that confirms kept views without a round trip (docs/mongodb.md §Kept views on MongoDB). */
  changeWatch?: ChangeWatchOptions;
  /** The most memory the documents kept for reads without a round trip take (default 32 MiB). */
  keptDocsBytes?: number;
  /** The most memory the feed entries kept by their positions take (default 16 MiB; 0 keeps none). */
  keptListingsBytes?: number;
  /** Numbers of a pretty-id counter a node reserves at once (default 16; docs/mongodb.md §Pretty-id numbers on MongoDB). */
  counterBlockSize?: number;
  /**
   * Sees each command the node's client sends and answers (not the change stream's, which has its own client): what a
   * request asks of the store, counted by `npm run bench` and test/store/mongo-round-trips.test.ts.
   */
  onCommand?: (event: StoreCommand) => void;
}

/** One command of the driver's command monitoring: its name, its request id, and whether it was sent or answered. */
export interface StoreCommand {
  name: string;
  id: number;
  phase: 'sent' | 'answered';
  /** The command's `comment`, when sent: the feed floors' heartbeat names its own (`HEARTBEAT_COMMENT`). */
  comment?: string;
}

const DEFAULT_DB = 'registry';

/**
 * How often the driver asks each server for its state (the URL's `heartbeatFrequencyMS` wins): after a step-down the
 * driver finds the primary again only at its next check, 10 s by the driver's default, so after a 1 s step-down writes
 * found no primary for 10.6 s; at 1 s they went through after 1.5 s (docs/cluster.md §Faults exercised).
 */
const HEARTBEAT_FREQUENCY_MS = 1000;

/** `fallback` unless the URL sets the driver option `name` itself. */
const unlessInUrl = (url: string, name: string, fallback: number | undefined) =>
  new RegExp(`[?&]${name}=`, 'i').test(url) ? undefined : fallback;

/** The database named in the URL's path (`mongodb://h1,h2/name?…`), which `new URL` cannot parse with several hosts. */
function dbNameOf(url: string): string {
  const name = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]+)/.exec(url)?.[1];
  return name ? decodeURIComponent(name) : DEFAULT_DB;
}

async function ensureSchema(db: Db): Promise<void> {
  for (const kind of KINDS) {
    await db.collection<ObjectRecord>(kind).createIndexes([
      { key: { isPublic: 1, isTest: 1, seq: 1 }, name: 'feed_by_mode' },
      { key: { isPublic: 1, seq: 1 }, name: 'feed_all' },
      { key: { seq: 1 }, name: 'seq', unique: true },
      {
        key: { 'doc.data.frameworkID': 1, isPublic: 1, seq: 1 },
        name: 'feed_by_framework',
        partialFilterExpression: { 'doc.data.frameworkID': { $exists: true } },
      },
      { key: { nextCheck: 1 }, name: 'due' },
    ]);
  }
}

/**
 * The cluster engine (docs/architecture.md §MongoDB engine): a replica set through the official driver, majority write and read
 * concerns, causally consistent sessions, indexes created at start-up. Retryable reads and writes stay on (the
 * driver default), so a primary change or dropped connection is retried once before it reaches callers as
 * StoreUnavailable.
 */
export async function openMongoStore(url: string, options: MongoStoreOptions = {}): Promise<Store> {
  const clientOf = (monitorCommands = false) =>
    new MongoClient(url, {
      monitorCommands,
      ignoreUndefined: true, // as JSON does: an undefined property is absent, not null
      // Every string stored came from a parsed JSON body or the app: checking its UTF-8 again on every read is waste.
      enableUtf8Validation: false,
      writeConcern: { w: 'majority' },
      readConcern: { level: 'majority' },
      readPreference: ReadPreference.fromString(options.readPreference ?? ReadPreference.SECONDARY_PREFERRED),
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? unlessInUrl(url, 'serverSelectionTimeoutMS', 10_000),
      heartbeatFrequencyMS: unlessInUrl(url, 'heartbeatFrequencyMS', HEARTBEAT_FREQUENCY_MS),
    });
  const client = clientOf(Boolean(options.onCommand));
  const onCommand = options.onCommand;
  if (onCommand) {
    client.on('commandStarted', (event) => {
      const comment: unknown = event.command.comment;
      onCommand({
        name: event.commandName,
        id: event.requestId,
        phase: 'sent',
        comment: typeof comment === 'string' ? comment : undefined,
      });
    });
    client.on('commandSucceeded', (event) => onCommand({ name: event.commandName, id: event.requestId, phase: 'answered' }));
    client.on('commandFailed', (event) => onCommand({ name: event.commandName, id: event.requestId, phase: 'answered' }));
  }
  // The change stream has a client of its own: its getMore is always in flight, and when a connection drop fails it
  // first, the driver marks the server unknown and then retries none of the writes that failed with it.
  const watchClient = clientOf(true);
  const dbName = dbNameOf(url);
  const db = client.db(dbName);
  const floors = new FeedFloors(db, options.feedFloors);
  const watch = new ChangeWatch(watchClient.db(dbName), options.changeWatch);
  watchClient.on('commandFailed', () => watch.interrupted());
  try {
    await client.connect();
    await ensureSchema(db);
    await floors.start();
    watch.start();
  } catch (error) {
    await Promise.all([watch.stop(), client.close()]);
    await watchClient.close();
    throw toStoreError(error);
  }
  const counters = new CounterBlocks(db, options.counterBlockSize);
  const parts = {
    client,
    db,
    counters,
    blobs: gridfsBlobs(client, dbName),
    floors,
    watch,
    keptDocs: new KeptDocs(watch, options.keptDocsBytes),
    keptListings: new KeptListings(options.keptListingsBytes),
    batch: new CommitBatch(client, db, floors, counters),
    windows: new FeedWindows(),
  };

  const guard = async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error);
    }
  };

  return {
    engine: 'mongodb',
    session: (token, author) => mongoSession(parts, token, author),
    transfer: mongoTransfer(db, parts.blobs),

    // The worker acts on what this returns, so it reads the primary rather than a possibly lagging secondary.
    due: (nowMs, limit) =>
      guard(async () => {
        if (limit <= 0) return [];
        const perKind = await Promise.all(
          KINDS.map(async (kind) => {
            const records = await db
              .collection<ObjectRecord>(kind)
              .find({ nextCheck: { $lte: nowMs } }, { readPreference: ReadPreference.primary, projection: { nextCheck: 1 } })
              .sort({ nextCheck: 1 })
              .limit(limit)
              .toArray();
            return records.map((r): Due => ({ kind, id: r._id, nextCheck: r.nextCheck! }));
          }),
        );
        return perKind
          .flat()
          .sort((a, b) => a.nextCheck - b.nextCheck)
          .slice(0, limit);
      }),

    ping: () =>
      guard(async () => {
        await db.command({ ping: 1 });
      }),

    async close() {
      await watch.stop();
      await watchClient.close();
      await floors.stop();
      await client.close();
    },
  };
}
