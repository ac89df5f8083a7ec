import type Database from 'better-sqlite3';

/**
 * A mark of the store's history, for kept views: replaced whenever this process commits (`renew`, before it reads
 * again: a batch of commits is applied synchronously) and whenever `PRAGMA data_version` shows that another
 * connection has committed. It reads the file's WAL state in a read transaction of its own, so it sees every
 * commit made before it is taken. A kept version found current after a mark was taken is therefore current while
 * the mark stays the same.
 */
export class HistoryMark {
  private readonly dataVersion: Database.Statement<[], number>;
  private mark: object = {};
  private markedVersion = -1;

  constructor(reader: Database.Database) {
    this.dataVersion = reader.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** The mark now; callers run it through `guard` (sqlite-errors.ts). */
  current(): object {
    const version = this.dataVersion.get()!;
    if (version !== this.markedVersion) {
      this.markedVersion = version;
      this.mark = {};
    }
    return this.mark;
  }

  renew(): void {
    this.mark = {};
  }
}
