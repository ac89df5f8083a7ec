import type { ClientSession, Db } from 'mongodb';
import { isDuplicateKey } from './store-errors';

interface CounterRecord {
  _id: string;
  value: number;
}

const counters = (db: Db) => db.collection<CounterRecord>('counters');

/** The counter's value after drawing `count` numbers, or null while it does not exist yet (see `createCounter`). */
async function incrementCounter(db: Db, name: string, count: number, session: ClientSession): Promise<number | null> {
  const counter = await counters(db).findOneAndUpdate({ _id: name }, { $inc: { value: count } }, { session, returnDocument: 'after' });
  return counter?.value ?? null;
}

/**
 * Creates the counter at 0 if it is missing. Not one `$inc` upsert: when first uses race, SecantusDB 0.7.0b3 can
 * apply an upserting increment yet return null, and retrying it would skip a number. Creating the counter apart
 * keeps every increment's answer.
 */
async function createCounter(db: Db, name: string, session: ClientSession): Promise<void> {
  try {
    await counters(db).updateOne({ _id: name }, { $setOnInsert: { value: 0 } }, { session, upsert: true });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error; // created by a concurrent first use
  }
}

/** The counter's next `count` values, rising (one `$inc`), creating the counter on its first use. */
export async function nextCounterValues(db: Db, name: string, session: ClientSession, count = 1): Promise<number[]> {
  let last = await incrementCounter(db, name, count, session);
  if (last === null) {
    await createCounter(db, name, session);
    last = await incrementCounter(db, name, count, session);
  }
  if (last === null) throw new Error(`counter ${name} vanished after it was created`);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
