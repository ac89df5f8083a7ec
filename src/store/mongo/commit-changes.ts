import { ReadPreference, type ClientSession, type Db } from 'mongodb';
import { isHiddenChange, StoreConflict, StoreUnavailable, type Change, type Numbering, type Stored } from '../port';
import type { CounterBlocks } from './counters';
import type { FeedFloors } from './feed-floors';
import {
  insertedRecord,
  isDuplicatePosition,
  LOCK_WAIT_MS,
  MAX_STAMPS,
  missedUpdate,
  objectsOf,
  PositionBehind,
  storedAt,
  takenPosition,
  updateFilter,
  updateSet,
} from './object-writes';
import { isDuplicateKey, toStoreError } from './mongo-errors';
import { readBack } from './read-back';

const TRANSACTION = {
  readConcern: { level: 'snapshot' as const },
  writeConcern: { w: 'majority' as const },
  readPreference: ReadPreference.primary,
};

/**
 * Applies several changes atomically at fresh feed positions (docs/mongodb.md §Feed ordering on MongoDB): one
 * transaction that writes only those objects, so it never touches a document unrelated commits need. A numbered
 * commit takes its number first, from the node's reserved block (counters.ts). A commit of one change goes through
 * the commit batch (commit-batch.ts) instead: one single-document write, no transaction.
 */
export async function commitChanges(
  db: Db,
  floors: FeedFloors,
  counters: CounterBlocks,
  session: ClientSession,
  changes: Change[],
  author: string,
  numbering?: Numbering,
): Promise<Stored[]> {
  if (changes.length === 0) return [];
  if (changes.length === 1 && isHiddenChange(changes[0])) return [await writeHidden(db, session, changes[0], author)];
  if (numbering) numbering.assign((await counters.take(numbering.counter, 1, session))[0]);
  for (let stamp = 1; ; stamp++) {
    try {
      const saved = await floors.stamp(changes.length, (positions) =>
        session.withTransaction(() => applyAll(db, session, changes, positions, author), TRANSACTION),
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

/** A lone hidden change (docs/architecture.md §Hidden changes) takes no position: one write, no stamp, no transaction. */
async function writeHidden(
  db: Db,
  session: ClientSession,
  change: Change & { op: 'update'; keepsPosition: number },
  author: string,
): Promise<Stored> {
  const objects = objectsOf(db, change);
  let matched;
  const sentAt = Date.now();
  try {
    ({ matchedCount: matched } = await objects.updateOne(
      updateFilter(change, change.keepsPosition),
      updateSet(change, change.keepsPosition, author),
      { session, maxTimeMS: LOCK_WAIT_MS },
    ));
  } catch (error) {
    if (!(toStoreError(error) instanceof StoreUnavailable)) throw error;
    // The write may have landed: read it back, as a commit batch does (read-back.ts).
    const [settled] = await readBack(objects, [{ change, position: change.keepsPosition }], {
      sentAt,
      error,
      waitMs: db.client.options.serverSelectionTimeoutMS,
    });
    if (settled !== 'written') throw settled === 'missing' ? error : settled;
    matched = 1;
  }
  if (matched === 1) return storedAt(change, change.keepsPosition);
  throw new StoreConflict('revision');
}

async function applyAll(db: Db, session: ClientSession, changes: Change[], positions: number[], author: string) {
  const saved: Stored[] = [];
  for (const [i, change] of changes.entries()) saved.push(await applyChange(db, session, change, positions[i], author));
  return saved;
}

async function applyChange(db: Db, session: ClientSession, change: Change, position: number, author: string): Promise<Stored> {
  if (change.op === 'insert') {
    try {
      await objectsOf(db, change).insertOne(insertedRecord(change, position, author), { session });
    } catch (error) {
      if (isDuplicateKey(error) && !isDuplicatePosition(error)) throw new StoreConflict('exists');
      throw error;
    }
    return storedAt(change, position);
  }
  const result = await objectsOf(db, change).updateOne(updateFilter(change, position), updateSet(change, position, author), { session });
  if (result.matchedCount === 1) return storedAt(change, position);
  throw await missedUpdate(db, change, session);
}
