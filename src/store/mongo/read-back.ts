import { ReadPreference, type Collection } from 'mongodb';
import { StoreUnavailable, type Change } from '../port';
import type { ObjectRecord } from './object-record';
import { toStoreError } from './mongo-errors';
import { storedAt } from './object-writes';

/** The first pause between read-backs that failed; it doubles up to `MAX_PAUSE_MS`. */
const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 500;

/** A change the node wrote at `position` without learning whether the write landed. */
export interface Unsettled {
  change: Change;
  position: number;
}

/**
 * Which of `writes` landed, read back from the primary (docs/cluster.md §Outcome unknown): a write landed when its
 * object holds the revision and position the write gave it. While no primary answers (a step-down), the read is
 * tried again for up to `waitMs`; past that the outcome stays unknown and the returned error says so. Even a server
 * selection error may follow an attempt that was sent: the driver's retry selects a server again.
 */
export async function readBack(
  collection: Collection<ObjectRecord>,
  writes: Unsettled[],
  waitMs: number,
  error: unknown,
): Promise<boolean[] | StoreUnavailable> {
  const ids = writes.map(({ change }) => change.id);
  const deadline = Date.now() + waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      const records = await collection
        .find({ _id: { $in: ids } }, { projection: { rev: 1, seq: 1 }, readPreference: ReadPreference.primary })
        .toArray();
      const byId = new Map(records.map((record) => [record._id, record]));
      return writes.map(({ change, position }) => {
        const written = storedAt(change, position);
        const record = byId.get(change.id);
        return record?.seq === written.seq && record.rev === written.rev;
      });
    } catch (readError) {
      if (!(toStoreError(readError) instanceof StoreUnavailable)) throw readError;
      const left = deadline - Date.now();
      if (left <= 0)
        return new StoreUnavailable('the store did not say whether the write was made', { cause: error, outcomeUnknown: true });
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}
