import type Database from 'better-sqlite3';
import { fromMicros, toMicros } from '../feed-position';
import type { Statements } from './statements';

/**
 * Whether every position below `bound` is taken for good (`StoreSession.sealedBelow`). Positions rise from the
 * counter, so every one below the counter's next is taken; once the wall clock `clock` (epoch ms) has passed a bound,
 * raising the counter to it keeps that true whatever the clock does next (docs/platform.md §Feeds).
 */
export function feedSeal(db: Database.Database, sql: Statements, clock: () => number): (bound: number) => boolean {
  const takenBelow = (micros: number) => toMicros(sql.lastSeq.get()!.value) + 1 >= micros;
  const raiseTo = db.transaction((micros: number) => {
    if (!takenBelow(micros)) sql.setLastSeq.run(fromMicros(micros - 1));
  });
  return (bound) => {
    const micros = toMicros(bound);
    if (takenBelow(micros)) return true;
    if (clock() * 1000 < micros) return false;
    raiseTo.immediate(micros);
    return true;
  };
}
