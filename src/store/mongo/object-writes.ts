import type { ClientSession, Collection, Db, MongoError } from 'mongodb';
import { isHiddenChange, StoreConflict, type Change, type Stored } from '../port';
import type { ObjectRecord } from './object-record';
import { isDuplicateKey } from './mongo-errors';

/**
 * How long an update waits for an object that a transaction holds (a node killed inside a multi-object commit holds
 * it until transactionLifetimeLimitSeconds): then the request answers 503 rather than hang.
 */
export const LOCK_WAIT_MS = 5000;

/**
 * Positions are unique per collection (index `seq`); two nodes may stamp the same one, and a node whose clock is
 * behind may stamp below an object's position: then it stamps again, at most this many times.
 */
export const MAX_STAMPS = 10;

export const objectsOf = (db: Db, change: Change): Collection<ObjectRecord> => db.collection<ObjectRecord>(change.kind);

/** The record an insert stores at `position`, with its first revision, made for `author`. */
export const insertedRecord = (change: Change & { op: 'insert' }, position: number, author: string): ObjectRecord => ({
  _id: change.id,
  rev: 1,
  seq: position,
  doc: change.doc,
  ...change.index,
  revisions: [{ seq: position, author, back: [] }],
});

/**
 * An update lands only if the object is still at the revision it was read at and its stored position is below the
 * stamp, so an object's positions rise with its revisions whatever the clocks say.
 */
export const updateFilter = (change: Change & { op: 'update' }, position: number) => ({
  _id: change.id,
  rev: change.expectedRev,
  seq: isHiddenChange(change) ? change.keepsPosition : { $lt: position },
});

/**
 * A visible change takes `position` and adds its revision, made for `author`; a hidden change keeps the object's
 * position and adds no revision (docs/architecture.md §Hidden changes).
 */
export const updateSet = (change: Change & { op: 'update' }, position: number, author: string) =>
  isHiddenChange(change)
    ? { $set: { rev: change.expectedRev + 1, doc: change.doc, ...change.index } }
    : {
        $set: { rev: change.expectedRev + 1, seq: position, doc: change.doc, ...change.index },
        $push: { revisions: { seq: position, author, back: change.back ?? [] } },
      };

/** The position a change leaves its object at, when stamped `position`. */
export const positionOf = (change: Change, position: number): number => (isHiddenChange(change) ? change.keepsPosition : position);

/** What the port returns for a change stored at `position`. */
export const storedAt = (change: Change, position: number): Stored => ({
  kind: change.kind,
  id: change.id,
  rev: change.op === 'insert' ? 1 : change.expectedRev + 1,
  seq: positionOf(change, position),
  doc: change.doc,
});

/**
 * Why an update matched nothing: the object holds a position at or above the stamp (a node whose clock is behind
 * learns it and stamps again: PositionBehind), or another commit changed it first (StoreConflict).
 */
export async function missedUpdate(
  db: Db,
  change: Change & { op: 'update' },
  session: ClientSession,
): Promise<PositionBehind | StoreConflict> {
  return missedBecause(change, await objectsOf(db, change).findOne({ _id: change.id }, { session, projection: { rev: 1, seq: 1 } }));
}

/** Why an update that matched nothing missed, from the object as stored now (`missedUpdate`). */
export const missedBecause = (
  change: Change & { op: 'update' },
  stored: { rev: number; seq: number } | null | undefined,
): PositionBehind | StoreConflict =>
  stored?.rev === change.expectedRev && !isHiddenChange(change) ? new PositionBehind(stored.seq) : new StoreConflict('revision');

/** The object holds a position at or above the stamp: stamp again above it. */
export class PositionBehind extends Error {
  constructor(readonly stored: number) {
    super(`the object is at position ${stored}`);
  }
}

type KeyError = { code?: unknown; message?: string; errmsg?: string; keyPattern?: Record<string, unknown>; keyValue?: { seq?: unknown } };

const messageOf = (error: KeyError) => error.errmsg ?? error.message ?? '';

/** The position another object holds, as the server names it (0 when it does not). */
export const takenPosition = (error: unknown): number => {
  const keyError = error as KeyError;
  const taken = keyError.keyValue?.seq ?? /index: seq dup key: \{ seq: ([\d.e+-]+) \}/.exec(messageOf(keyError))?.[1];
  return Number(taken) || 0;
};

/** Another object already holds the position (unique index `seq`); `error` is a driver error or a bulk write's item error. */
export const isDuplicatePosition = (error: unknown): boolean =>
  (isDuplicateKey(error) || (error as KeyError).code === 11000) &&
  ((error as KeyError).keyPattern?.seq !== undefined || /index: seq\b/.test(messageOf(error as MongoError & KeyError)));
