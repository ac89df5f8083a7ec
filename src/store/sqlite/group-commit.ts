import type Database from 'better-sqlite3';

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Waiting<I, R> {
  item: I;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the commits asked for in one turn of the event loop share one write transaction, each in a
 * savepoint of its own. A commit writes every page it touches to the WAL, and consecutive commits touch mostly
 * the same pages (the tails of the table and of the feed indexes, the counters), so a batch writes them once.
 * One commit's failure (a revision conflict) rolls back its savepoint alone and rejects it alone; a failure of
 * the transaction itself (busy, disk full) rejects every commit of the batch, none of which was kept.
 *
 * `applyOne` runs inside the transaction; `run` wraps each batch's transaction (error mapping, bookkeeping) and
 * is told how many commits it holds.
 */
export function groupCommits<I, R>(
  db: Database.Database,
  applyOne: (item: I) => R,
  run: <T>(transaction: () => T, commits: number) => T,
): GroupCommit<I, R> {
  const inOwnSavepoint = db.transaction(applyOne);
  const applyAll = db.transaction((items: I[]) =>
    items.map((item): Outcome<R> => {
      try {
        return { ok: true, value: inOwnSavepoint(item) };
      } catch (error) {
        // SQLite ended the whole transaction (I/O error, disk full): nothing of the batch was kept.
        if (!db.inTransaction) throw error;
        return { ok: false, error };
      }
    }),
  );

  let waiting: Waiting<I, R>[] = [];
  const flush = () => {
    const batch = waiting;
    if (!batch.length) return;
    waiting = [];
    let outcomes: Outcome<R>[];
    try {
      outcomes = run(() => applyAll.immediate(batch.map((w) => w.item)), batch.length);
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) w.resolve(outcome.value);
      else w.reject(outcome.error);
    });
  };

  return {
    commit: (item) =>
      new Promise<R>((resolve, reject) => {
        if (waiting.push({ item, resolve, reject }) === 1) setImmediate(flush);
      }),
    flushIf(waits) {
      if (waiting.some((w) => waits(w.item))) flush();
    },
  };
}

export interface GroupCommit<I, R> {
  commit(item: I): Promise<R>;
  /**
   * Applies the waiting commits now if one of them is one the caller waits for. A read that may lead to a write
   * calls it, so it does not start from a version a waiting commit is about to replace: concurrent edits of one
   * object then meet revision conflicts no more often than they did one commit at a time.
   */
  flushIf(waits: (item: I) => boolean): void;
}
