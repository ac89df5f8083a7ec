import Database from 'better-sqlite3';

export interface StaleSnapshot {
  db: Database.Database;
  close(): void;
}

/**
 * TEST ONLY (TEST_STALE_READS): a second connection holding a read transaction, so it keeps seeing the file as it
 * was, refreshed every `refreshMs`. Reads from it ignore the causal token, so the consistency checker can prove it
 * catches a node that breaks the session guarantees.
 */
export function staleSnapshot(path: string, refreshMs: number): StaleSnapshot {
  const db = new Database(path, { readonly: true });
  const pin = db.prepare("SELECT value FROM counters WHERE name = '__seq__'");
  const open = () => {
    db.exec('BEGIN');
    pin.get(); // a WAL read transaction takes its snapshot at the first read, not at BEGIN
  };
  open();
  const timer = setInterval(() => {
    db.exec('COMMIT');
    open();
  }, refreshMs);
  timer.unref();
  return {
    db,
    close() {
      clearInterval(timer);
      db.close();
    },
  };
}
