import type { AnyBulkWriteOperation, ClientSession, Collection, Db, MongoClient } from 'mongodb';
import { MongoBulkWriteError, ReadPreference } from 'mongodb';
import { StoreConflict, StoreUnavailable, type Change, type Kind, type Numbering, type Stored } from '../port';
import type { CausalTimes } from './causal-token';
import type { CounterBlocks } from './counters';
import type { FeedFloors } from './feed-floors';
import type { ObjectRecord } from './object-record';
import { toStoreError } from './mongo-errors';
import { readBack, type Unknown } from './read-back';
import {
  insertedRecord,
  isDuplicatePosition,
  LOCK_WAIT_MS,
  MAX_STAMPS,
  missedBecause,
  PositionBehind,
  storedAt,
  takenPosition,
  updateFilter,
  updateSet,
} from './object-writes';

/** Batches under way at once from one node; commits asked for meanwhile wait for one of them to return. */
const MAX_IN_FLIGHT = 2;

/** A commit of one change, and the session times of the write that stored it. */
export interface Committed {
  stored: Stored;
  times: CausalTimes;
}

interface Waiting {
  change: Change;
  numbering?: Numbering;
  /** Whom the commit is made for, kept with its revision. */
  author: string;
  resolve(committed: Committed): void;
  reject(error: unknown): void;
}

/** What became of one change of a batch's write. */
type Outcome = { stored: Stored } | { again: true } | { error: unknown };

/**
 * Group commit on MongoDB (docs/mongodb.md §Commit batches on MongoDB): the one-change commits asked for in one
 * turn of the event loop are sent together, and while `MAX_IN_FLIGHT` batches are under way the next ones wait and
 * go together when one returns, so batches grow with the load instead of round trips. Their numbers come from the
 * node's reserved blocks (counters.ts), their positions from one stamp, and their writes from one unordered bulk
 * write per collection; each write is still a single-document write with its own revision check, so one commit's
 * conflict fails that commit alone, and nothing is left locked if the node dies. When fewer updates matched than were sent, the objects as stored tell which missed.
 */
export class CommitBatch {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly floors: FeedFloors,
    private readonly counters: CounterBlocks,
  ) {}

  commit(change: Change, author: string, numbering?: Numbering): Promise<Committed> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ change, numbering, author, resolve, reject });
      this.schedule();
    });
  }

  /** Sends the waiting commits at the end of this turn, unless enough batches are under way: then when one returns. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_IN_FLIGHT || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.inFlight < MAX_IN_FLIGHT && this.waiting.length > 0) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.inFlight++;
    const session = this.client.startSession({ causalConsistency: true });
    const done = (w: Waiting, outcome: Exclude<Outcome, { again: true }>) =>
      'stored' in outcome
        ? w.resolve({ stored: outcome.stored, times: { clusterTime: session.clusterTime, operationTime: session.operationTime } })
        : w.reject(outcome.error);
    let pending = batch;
    try {
      await this.number(batch, session);
      for (let stamp = 1; pending.length; stamp++) {
        const outcomes = await this.floors.stamp(pending.length, (positions) => this.write(pending, positions, session));
        const again: Waiting[] = [];
        outcomes.forEach((outcome, i) => {
          if (!('again' in outcome)) done(pending[i], outcome);
          else if (stamp < MAX_STAMPS) again.push(pending[i]);
          else done(pending[i], { error: new Error(`no free feed position after ${MAX_STAMPS} stamps`) });
        });
        pending = again;
      }
    } catch (error) {
      for (const w of pending) w.reject(error);
    } finally {
      this.inFlight--;
      this.schedule();
      await session.endSession();
    }
  }

  /** The numbered commits' numbers, from the node's reserved blocks, given out in the order asked. */
  private async number(batch: Waiting[], session: ClientSession): Promise<void> {
    const numbered = batch.flatMap(({ numbering }) => (numbering ? [numbering] : []));
    for (const [counter, numberings] of groupBy(numbered, (numbering) => numbering.counter)) {
      const values = await this.counters.take(counter, numberings.length, session);
      numberings.forEach((numbering, i) => numbering.assign(values[i]));
    }
  }

  /** The batch's writes at `positions`, one bulk write per collection; the outcome of each, in the batch's order. */
  private async write(batch: Waiting[], positions: number[], session: ClientSession): Promise<Outcome[]> {
    const outcomes: Outcome[] = batch.map(({ change }, i) => ({ stored: storedAt(change, positions[i]) }));
    for (const [kind, indexes] of groupBy(
      batch.map((_, i) => i),
      (i) => batch[i].change.kind,
    )) {
      const collection = this.db.collection<ObjectRecord>(kind);
      let written;
      const sentAt = Date.now();
      try {
        written = await bulkWrite(
          collection,
          indexes.map((i) => operationOf(batch[i].change, positions[i], batch[i].author)),
          session,
        );
      } catch (error) {
        if (!(toStoreError(error) instanceof StoreUnavailable)) throw error;
        await this.settleUnknown(collection, indexes, batch, positions, outcomes, {
          sentAt,
          error,
          waitMs: this.client.options.serverSelectionTimeoutMS,
        });
        continue;
      }
      const { failed, matched } = written;
      for (const [at, error] of failed) outcomes[indexes[at]] = this.outcomeOf(batch[indexes[at]].change, error);
      const updates = indexes.filter((i, at) => batch[i].change.op === 'update' && !failed.has(at));
      if (matched < updates.length) await this.settleMissed(kind, updates, batch, positions, outcomes, session);
    }
    const stored = outcomes.flatMap((outcome) => ('stored' in outcome ? [outcome.stored.seq] : []));
    if (stored.length) this.floors.committedAt(Math.max(...stored));
    return outcomes;
  }

  /**
   * The store failed to answer (a write concern error, a dropped connection): the writes may or may not have landed.
   * The objects as stored on the primary tell (read-back.ts): one at its stamp was written, and is acknowledged as any
   * other; the others fail with the error, known not written at their stamp, so a broker's retry makes no duplicate
   * (docs/cluster.md §Outcome unknown). When no primary answers within the selection timeout, they all fail as unknown.
   */
  private async settleUnknown(
    collection: Collection<ObjectRecord>,
    indexes: number[],
    batch: Waiting[],
    positions: number[],
    outcomes: Outcome[],
    unknown: Unknown,
  ) {
    const writes = indexes.map((i) => ({ change: batch[i].change, position: positions[i] }));
    const settled = await readBack(collection, writes, unknown);
    indexes.forEach((i, at) => {
      if (settled[at] !== 'written') outcomes[i] = { error: settled[at] === 'missing' ? unknown.error : settled[at] };
    });
  }

  /** What a write error of `change` means: stamp again, a conflict, or the error itself. */
  private outcomeOf(change: Change, error: unknown): Outcome {
    if (isDuplicatePosition(error)) {
      this.floors.clock.skipPast(takenPosition(error));
      return { again: true };
    }
    if (change.op === 'insert' && (error as { code?: unknown }).code === 11000) return { error: new StoreConflict('exists') };
    return { error };
  }

  /**
   * Some updates matched nothing: the objects as stored tell which. One at its stamp and next revision was written;
   * one still at the revision read holds a position at or above the stamp (stamp again above it); any other was
   * changed by another commit first.
   */
  private async settleMissed(
    kind: Kind,
    updates: number[],
    batch: Waiting[],
    positions: number[],
    outcomes: Outcome[],
    session: ClientSession,
  ) {
    const stored = await this.db
      .collection<ObjectRecord>(kind)
      .find(
        { _id: { $in: updates.map((i) => batch[i].change.id) } },
        { session, projection: { rev: 1, seq: 1 }, readPreference: ReadPreference.primary },
      )
      .toArray();
    const byId = new Map(stored.map((record) => [record._id, record]));
    for (const i of updates) {
      const change = batch[i].change as Change & { op: 'update' };
      const now = byId.get(change.id);
      if (now?.seq === positions[i] && now.rev === change.expectedRev + 1) continue;
      const why = missedBecause(change, now);
      if (why instanceof PositionBehind) {
        this.floors.clock.observe(why.stored);
        outcomes[i] = { again: true };
      } else outcomes[i] = { error: why };
    }
  }
}

function operationOf(change: Change, position: number, author: string): AnyBulkWriteOperation<ObjectRecord> {
  if (change.op === 'insert') return { insertOne: { document: insertedRecord(change, position, author) } };
  return { updateOne: { filter: updateFilter(change, position), update: updateSet(change, position, author) } };
}

/** One unordered bulk write: the operations that failed, by their index in `operations`, and how many updates matched. */
async function bulkWrite(
  collection: Collection<ObjectRecord>,
  operations: AnyBulkWriteOperation<ObjectRecord>[],
  session: ClientSession,
): Promise<{ failed: Map<number, unknown>; matched: number }> {
  try {
    const result = await collection.bulkWrite(operations, { ordered: false, session, maxTimeMS: LOCK_WAIT_MS });
    return { failed: new Map(), matched: result.matchedCount };
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError) || !Array.isArray(error.writeErrors) || error.writeErrors.length === 0) throw error;
    if (error.result?.getWriteConcernError()) throw error; // not majority-acknowledged: the outcome of every write is unknown
    return { failed: new Map(error.writeErrors.map((writeError) => [writeError.index, writeError])), matched: error.result.matchedCount };
  }
}

/** `items` by `keyOf`, each group in the items' order. */
function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(keyOf(item));
    if (group) group.push(item);
    else groups.set(keyOf(item), [item]);
  }
  return groups;
}
