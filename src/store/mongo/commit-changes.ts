import { ReadPreference, type ClientSession, type Db } from 'mongodb';
import { StoreConflict, type Change, type Numbering, type Stored } from '../port';
import { createCounter, incrementCounter } from './counters';
import type { ObjectRecord } from './object-record';
import { isDuplicateKey } from './store-errors';

/** The single document whose counter hands out feed positions. */
export const FEED_SEQUENCE = { collection: 'sequence', id: 'feed' } as const;

export interface SequenceRecord {
  _id: string;
  value: number;
}

const TRANSACTION = {
  readConcern: { level: 'snapshot' as const },
  writeConcern: { w: 'majority' as const },
  readPreference: ReadPreference.primary,
};

/**
 * Applies all changes in one transaction and gives each a feed position `seq`.
 *
 * Why `seq` follows commit order even when nodes commit concurrently: every commit increments the one
 * sequence document inside its own transaction. MongoDB lets only one transaction write a document between
 * another's snapshot and commit: a second writer gets a WriteConflict (TransientTransactionError) and
 * `withTransaction` retries it from scratch, after the first has committed. So of any two committed commits,
 * the later one read the earlier one's counter and took larger numbers; seq order is commit (oplog) order, and
 * any majority snapshot that shows seq N also shows every seq below N. A crawler paging `seq > offset` can
 * therefore never skip a change that becomes visible later. The price is that commits are serialised
 * store-wide, which the registry's write rate allows.
 */
export async function commitChanges(db: Db, session: ClientSession, changes: Change[], numbering?: Numbering): Promise<Stored[]> {
  if (changes.length === 0) return [];
  if (!numbering) return inTransaction(db, session, changes);
  try {
    return await inTransaction(db, session, changes, numbering);
  } catch (error) {
    if (!(error instanceof CounterMissing)) throw error;
  }
  // Created outside the transaction: an upsert racing another node's inside one would abort it for good.
  await createCounter(db, numbering.counter, session);
  return inTransaction(db, session, changes, numbering);
}

class CounterMissing extends Error {}

async function inTransaction(db: Db, session: ClientSession, changes: Change[], numbering?: Numbering): Promise<Stored[]> {
  return session.withTransaction(async () => {
    if (numbering) {
      const value = await incrementCounter(db, numbering.counter, session);
      if (value === null) throw new CounterMissing(numbering.counter);
      numbering.assign(value);
    }
    const counter = await db
      .collection<SequenceRecord>(FEED_SEQUENCE.collection)
      .findOneAndUpdate(
        { _id: FEED_SEQUENCE.id },
        { $inc: { value: changes.length } },
        { session, returnDocument: 'after' },
      );
    if (!counter) throw new Error('the feed sequence document is missing (created by openMongoStore)');
    const firstSeq = counter.value - changes.length + 1;
    const saved: Stored[] = [];
    for (const [i, change] of changes.entries()) {
      saved.push(await applyChange(db, session, change, firstSeq + i));
    }
    return saved;
  }, TRANSACTION);
}

async function applyChange(db: Db, session: ClientSession, change: Change, seq: number): Promise<Stored> {
  const collection = db.collection<ObjectRecord>(change.kind);
  const fields = { seq, doc: change.doc, ...change.index };
  if (change.op === 'insert') {
    try {
      await collection.insertOne({ _id: change.id, rev: 1, ...fields }, { session });
    } catch (error) {
      if (isDuplicateKey(error)) throw new StoreConflict('exists');
      throw error;
    }
    return { kind: change.kind, id: change.id, rev: 1, seq, doc: change.doc };
  }
  const rev = change.expectedRev + 1;
  const result = await collection.replaceOne({ _id: change.id, rev: change.expectedRev }, { rev, ...fields }, { session });
  if (result.matchedCount !== 1) throw new StoreConflict('revision');
  return { kind: change.kind, id: change.id, rev, seq, doc: change.doc };
}
