import type Database from 'better-sqlite3';
import { fromMicros, toMicros } from '../feed-position';
import type { Statements } from './statements';

/**
 * Whether every position below a bound (microseconds) is taken for good (port.ts `StoreSession.sealedBelow`).
 * Positions rise from the `__seq__` counter, so every one below the counter's next is taken; once the wall clock has
 * passed a bound, raising the counter to it keeps that true whatever the clock does next (docs/platform.md §Feeds).
 */
export function positionSealer(db: Database.Database, sql: Statements, clock: () => number): (bound: number) => boolean {
  const takenBelow = (bound: number) => toMicros(sql.lastSeq.get()!.value) + 1 >= bound;
  const raiseTo = db.transaction((bound: number) => {
    if (!takenBelow(bound)) sql.setLastSeq.run(fromMicros(bound - 1));
  });
  return (bound) => {
    if (takenBelow(bound)) return true;
    if (clock() * 1000 < bound) return false;
    raiseTo.immediate(bound);
    return true;
  };
}
