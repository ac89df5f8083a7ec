import type { ClientSession, Db } from 'mongodb';
import { isDuplicateKey } from './mongo-errors';

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

/** Numbers a node reserves with one `$inc` when it runs out (docs/mongodb.md §Pretty-id numbers on MongoDB). */
export const DEFAULT_BLOCK_SIZE = 16;

/**
 * A node's reserved numbers of each counter, drawn a block at a time: a create then costs no round trip for its
 * number until the block is used up. Numbers stay unique (each block is one `$inc`) and rise on each node; across
 * nodes they interleave by block, and a node that stops leaves the rest of its blocks unused.
 */
export class CounterBlocks {
  /** Counter name → its reserved numbers not yet given out, as [first, last] ranges, lowest first. */
  private readonly reserved = new Map<string, [number, number][]>();

  constructor(
    private readonly db: Db,
    private readonly blockSize = DEFAULT_BLOCK_SIZE,
  ) {}

  /** The next `count` numbers of the counter, rising. */
  async take(name: string, count: number, session: ClientSession): Promise<number[]> {
    if (this.available(name) < count) {
      const size = Math.max(count, this.blockSize);
      const values = await nextCounterValues(this.db, name, session, size);
      // Added and taken in one continuation: what another take reserved meanwhile is its own and left to it.
      this.ranges(name).push([values[0], values[size - 1]]);
    }
    return this.give(name, count);
  }

  private ranges(name: string): [number, number][] {
    let ranges = this.reserved.get(name);
    if (!ranges) this.reserved.set(name, (ranges = []));
    return ranges;
  }

  private available(name: string): number {
    return (this.reserved.get(name) ?? []).reduce((sum, [first, last]) => sum + last - first + 1, 0);
  }

  private give(name: string, count: number): number[] {
    const ranges = this.ranges(name).sort((a, b) => a[0] - b[0]);
    const numbers: number[] = [];
    while (numbers.length < count) {
      const range = ranges[0];
      numbers.push(range[0]++);
      if (range[0] > range[1]) ranges.shift();
    }
    if (ranges.length === 0) this.reserved.delete(name);
    return numbers;
  }
}
