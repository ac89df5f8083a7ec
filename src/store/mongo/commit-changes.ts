import { MongoError, ReadPreference, type ClientSession, type Db } from 'mongodb';
import { StoreConflict, type Change, type Numbering, type Stored } from '../port';
import { nextCounterValue } from './counters';
import type { FeedFloors } from './feed-floors';
import type { ObjectRecord } from './object-record';
import { isDuplicateKey } from './store-errors';

const TRANSACTION = {
  readConcern: { level: 'snapshot' as const },
  writeConcern: { w: 'majority' as const },
  readPreference: ReadPreference.primary,
};

/**
 * Positions are unique per collection (index `seq`); two nodes may stamp the same one, and a node whose clock is
 * behind may stamp below an object's position: then it stamps again.
 */
const MAX_STAMPS = 10;

/**
 * How long an update waits for an object that a transaction holds (a node killed inside a multi-object commit holds
 * it until transactionLifetimeLimitSeconds): then the request answers 503 rather than hang.
 */
const LOCK_WAIT_MS = 5000;

/**
 * Applies all changes atomically at fresh feed positions (docs/architecture.md §Feed ordering on MongoDB). One
 * change is one single-document write with its revision check: no transaction, nothing left locked if the node
 * dies. Several changes share a transaction that writes only those objects. No write touches a document that
 * unrelated commits need; a numbered commit (a create) draws its number first, with one `$inc` of its counter.
 */
export async function commitChanges(
  db: Db,
  floors: FeedFloors,
  session: ClientSession,
  changes: Change[],
  numbering?: Numbering,
): Promise<Stored[]> {
  if (changes.length === 0) return [];
  if (numbering) numbering.assign(await nextCounterValue(db, numbering.counter, session));
  for (let stamp = 1; ; stamp++) {
    try {
      const saved = await floors.stamp(changes.length, (positions) =>
        changes.length === 1
          ? applyChange(db, session, changes[0], positions[0]).then((one) => [one])
          : session.withTransaction(() => applyAll(db, session, changes, positions), TRANSACTION),
      );
      floors.committedAt(Math.max(...saved.map((s) => s.seq)));
      return saved;
    } catch (error) {
      if (error instanceof PositionBehind) floors.clock.observe(error.stored);
      else if (isDuplicatePosition(error)) floors.clock.skipPast(takenPosition(error));
      else throw error;
      if (stamp >= MAX_STAMPS) throw error;
    }
  }
}

async function applyAll(db: Db, session: ClientSession, changes: Change[], positions: number[]) {
  const saved: Stored[] = [];
  for (const [i, change] of changes.entries()) saved.push(await applyChange(db, session, change, positions[i]));
  return saved;
}

/**
 * An update lands only if the object's stored position is below its stamp, so an object's positions rise with its
 * revisions whatever the clocks say: a node whose clock is behind learns the stored position and stamps again.
 */
async function applyChange(db: Db, session: ClientSession, change: Change, position: number): Promise<Stored> {
  const collection = db.collection<ObjectRecord>(change.kind);
  if (change.op === 'insert') {
    try {
      await collection.insertOne({ _id: change.id, rev: 1, seq: position, doc: change.doc, ...change.index }, { session });
    } catch (error) {
      if (isDuplicateKey(error) && !isDuplicatePosition(error)) throw new StoreConflict('exists');
      throw error;
    }
    return { kind: change.kind, id: change.id, rev: 1, seq: position, doc: change.doc };
  }
  const rev = change.expectedRev + 1;
  const result = await collection.updateOne(
    { _id: change.id, rev: change.expectedRev, seq: { $lt: position } },
    { $set: { rev, seq: position, doc: change.doc, ...change.index } },
    { session, maxTimeMS: session.inTransaction() ? undefined : LOCK_WAIT_MS },
  );
  if (result.matchedCount === 1) return { kind: change.kind, id: change.id, rev, seq: position, doc: change.doc };
  const stored = await collection.findOne({ _id: change.id }, { session, projection: { rev: 1, seq: 1 } });
  if (stored?.rev === change.expectedRev) throw new PositionBehind(stored.seq);
  throw new StoreConflict('revision');
}

/** The object holds a position at or above the stamp: stamp again above it. */
class PositionBehind extends Error {
  constructor(readonly stored: number) {
    super(`the object is at position ${stored}`);
  }
}

/** The position another object holds, as the server names it (0 when it does not). */
const takenPosition = (error: unknown): number => {
  const taken = (error as MongoError & { keyValue?: { seq?: unknown } }).keyValue?.seq;
  return typeof taken === 'number' ? taken : 0;
};

/** Another object already holds the position (unique index `seq`). */
const isDuplicatePosition = (error: unknown): boolean =>
  isDuplicateKey(error) &&
  ((error as MongoError & { keyPattern?: Record<string, unknown> }).keyPattern?.seq !== undefined ||
    /index: seq\b/.test((error as MongoError).message));
