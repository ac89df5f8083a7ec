import type { ClientSession, Db } from 'mongodb';
import { isDuplicateKey } from './store-errors';

interface CounterRecord {
  _id: string;
  value: number;
}

const counters = (db: Db) => db.collection<CounterRecord>('counters');

/** The counter's next value, or null while it does not exist yet (see `createCounter`). */
async function incrementCounter(db: Db, name: string, session: ClientSession): Promise<number | null> {
  const counter = await counters(db).findOneAndUpdate({ _id: name }, { $inc: { value: 1 } }, { session, returnDocument: 'after' });
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

/** A counter's next value, creating the counter on its first use. */
export async function nextCounterValue(db: Db, name: string, session: ClientSession): Promise<number> {
  let value = await incrementCounter(db, name, session);
  if (value === null) {
    await createCounter(db, name, session);
    value = await incrementCounter(db, name, session);
  }
  if (value === null) throw new Error(`counter ${name} vanished after it was created`);
  return value;
}
