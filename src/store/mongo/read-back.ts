import { setTimeout as pause } from 'node:timers/promises';
import { ReadPreference, type Collection, type ReadConcernLevel } from 'mongodb';
import { StoreUnavailable, type Change } from '../port';
import type { ObjectRecord } from './object-record';
import { connectionCut, toStoreError } from './mongo-errors';
import { LOCK_WAIT_MS, storedAt } from './object-writes';

/** The first pause between read-backs that failed; it doubles up to `MAX_PAUSE_MS`. */
const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 500;

/** A change the node wrote at `position` without learning whether the write landed. */
export interface Unsettled {
  change: Change;
  position: number;
}

/** What the node knows of a write of unknown outcome: when it sent it first, why it does not know, how long to wait. */
export interface Unknown {
  /** `Date.now()` when the write's first attempt was sent. */
  sentAt: number;
  error: unknown;
  /** How long to look for a primary to read back from (the client's server selection timeout). */
  waitMs: number;
}

/**
 * What became of a write: `written` (majority-committed, so it stays), `missing` (it cannot land any more), or
 * `unknown`, as a StoreUnavailable that says so.
 */
export type Settled = 'written' | 'missing' | StoreUnavailable;

/**
 * What became of each of `writes`, read back from the primary (docs/cluster.md §Outcome unknown): a write landed when
 * its object holds the revision and position the write gave it.
 * - A majority read finds the writes that stay.
 * - A write whose connection was cut may still be running on the server: it is read again once its `maxTimeMS`
 *   (`LOCK_WAIT_MS`) from sending has passed, after which it can no longer land.
 * - A write the primary holds but a majority does not yet (a write concern error) may still be rolled back: unknown.
 * - While no primary answers (a step-down), a read is tried again for up to `waitMs`; past that, unknown.
 */
export async function readBack(collection: Collection<ObjectRecord>, writes: Unsettled[], unknown: Unknown): Promise<Settled[]> {
  const { sentAt, error, waitMs } = unknown;
  const unknownAll = () => writes.map(() => outcomeUnknown(error));
  let majority = await landed(collection, writes, 'majority', waitMs);
  if (majority instanceof StoreUnavailable) return unknownAll();
  if (majority.every(Boolean)) return writes.map(() => 'written');
  const stillRunning = sentAt + LOCK_WAIT_MS - Date.now();
  if (connectionCut(error) && stillRunning > 0) {
    await pause(stillRunning);
    majority = await landed(collection, writes, 'majority', waitMs);
    if (majority instanceof StoreUnavailable) return unknownAll();
  }
  const local = majority.every(Boolean) ? majority : await landed(collection, writes, 'local', waitMs);
  if (local instanceof StoreUnavailable) return unknownAll();
  return writes.map((_, i) => (majority[i] ? 'written' : local[i] ? outcomeUnknown(error) : 'missing'));
}

const outcomeUnknown = (error: unknown) =>
  new StoreUnavailable('the store did not say whether the write was made', { cause: error, outcomeUnknown: true });

/** Whether each write is in the store at `level`, read from the primary, tried again while none answers for `waitMs`. */
async function landed(
  collection: Collection<ObjectRecord>,
  writes: Unsettled[],
  level: ReadConcernLevel,
  waitMs: number,
): Promise<boolean[] | StoreUnavailable> {
  const ids = writes.map(({ change }) => change.id);
  const deadline = Date.now() + waitMs;
  for (let next = FIRST_PAUSE_MS; ; next = Math.min(next * 2, MAX_PAUSE_MS)) {
    try {
      const records = await collection
        .find({ _id: { $in: ids } }, { projection: { rev: 1, seq: 1 }, readPreference: ReadPreference.primary, readConcern: { level } })
        .toArray();
      const byId = new Map(records.map((record) => [record._id, record]));
      return writes.map(({ change, position }) => {
        const written = storedAt(change, position);
        const record = byId.get(change.id);
        return record?.seq === written.seq && record.rev === written.rev;
      });
    } catch (readError) {
      const unavailable = toStoreError(readError);
      if (!(unavailable instanceof StoreUnavailable)) throw readError;
      const left = deadline - Date.now();
      if (left <= 0) return unavailable;
      await pause(Math.min(next, left));
    }
  }
}
