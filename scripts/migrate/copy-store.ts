import { KINDS, type Kind, type Store, type StoredRecord } from '../../src/store/port';
import { paged } from './paged';

/** What a copy did (or, dry, would do) with each kind of what the source holds. */
export interface CopyCounts {
  /** Read from the source. */
  read: number;
  /** Put into the target; dry: missing there or older. */
  put: number;
}

export type CopyReport = Record<Kind | 'blobs' | 'counters', CopyCounts> & {
  /** The highest position copied (0 with none): the target's next commits must come after it. */
  lastPosition: number;
};

export interface CopyOptions {
  /** Objects per read and per put. */
  batch: number;
  /** Blobs per read and per put (each may be as large as an upload). */
  blobBatch: number;
  /** Read both stores, write nothing, count what would be put. */
  dryRun: boolean;
  /** Told after each batch: what and how many. */
  progress?: (what: Kind | 'blobs', count: number) => void;
}

/** The records the target lacks or holds at an earlier revision: what a put would store. */
async function missing(to: Store, kind: Kind, records: StoredRecord[]): Promise<number> {
  const held = new Map(
    (
      await to.session().getMany(
        kind,
        records.map((r) => r.id),
      )
    ).map((s) => [s.id, s.rev]),
  );
  return records.filter((r) => (held.get(r.id) ?? 0) < r.rev).length;
}

/**
 * Copies every object of every kind, every blob and every counter of `from` into `to` through the port's transfer
 * (docs/operations.md §Migration). Objects go in position order, a batch read while the one before is put. Each put
 * is idempotent, so a copy stopped anywhere and run again ends with the same store and nothing twice.
 */
export async function copyStore(from: Store, to: Store, options: CopyOptions): Promise<CopyReport> {
  const report = { lastPosition: 0 } as CopyReport;
  for (const kind of KINDS) {
    const counts = (report[kind] = { read: 0, put: 0 });
    const put = (records: StoredRecord[]) => (options.dryRun ? missing(to, kind, records) : to.transfer.importRecords(records));
    let records = await from.transfer.exportRecords(kind, undefined, options.batch);
    while (records.length) {
      const last = records[records.length - 1].seq;
      const next = records.length < options.batch ? Promise.resolve([]) : from.transfer.exportRecords(kind, last, options.batch);
      counts.put += await put(records);
      counts.read += records.length;
      report.lastPosition = Math.max(report.lastPosition, last);
      options.progress?.(kind, records.length);
      records = await next;
    }
  }
  const blobs = (report.blobs = { read: 0, put: 0 });
  const blobPages = paged(
    (after: string | undefined) => from.transfer.exportBlobs(after, options.blobBatch),
    (b) => b.id,
    options.blobBatch,
  );
  for await (const page of blobPages) {
    const held = options.dryRun ? await Promise.all(page.map((b) => to.session().getBlob(b.id))) : [];
    blobs.put += options.dryRun ? held.filter((b) => b === null).length : await to.transfer.importBlobs(page);
    blobs.read += page.length;
    options.progress?.('blobs', page.length);
  }
  const counters = await from.transfer.exportCounters();
  const targetCounters = new Map((options.dryRun ? await to.transfer.exportCounters() : []).map((c) => [c.name, c.value]));
  report.counters = {
    read: counters.length,
    put: options.dryRun
      ? counters.filter((c) => (targetCounters.get(c.name) ?? 0) < c.value).length
      : await to.transfer.importCounters(counters),
  };
  return report;
}
