import { apiJson } from '../../src/store/api-json';
import { KINDS, type Blob, type Kind, type Store, type StoredRecord } from '../../src/store/port';
import { paged } from './paged';

export interface Difference {
  what: Kind | 'blobs' | 'counters';
  /** The object's id (blob id, counter name). */
  id: string;
  /** `missing`: only in the source; `extra`: only in the target; else what differs. */
  how: string;
}

export interface VerifyReport {
  /** Compared and equal, per kind, blobs and counters. */
  same: Record<Kind | 'blobs' | 'counters', number>;
  differences: Difference[];
}

/** The items of a paged read one by one. */
async function* each<T>(pages: AsyncGenerator<T[]>): AsyncGenerator<T> {
  for await (const items of pages) yield* items;
}

/**
 * Walks two sequences in the same order at once: items at the same key are compared by `differ`, an item at a key only
 * one side has is missing (source) or extra (target).
 */
async function merge<T, C>(
  source: AsyncGenerator<T>,
  target: AsyncGenerator<T>,
  key: (item: T) => C,
  differ: (a: T, b: T) => string | null,
  found: (id: T, how: string | null) => void,
): Promise<void> {
  let [a, b] = [await source.next(), await target.next()];
  while (!a.done || !b.done) {
    if (!a.done && (b.done || key(a.value) < key(b.value))) {
      found(a.value, 'missing');
      a = await source.next();
    } else if (!b.done && (a.done || key(b.value) < key(a.value))) {
      found(b.value, 'extra');
      b = await target.next();
    } else {
      found(a.value as T, differ(a.value as T, b.value as T));
      [a, b] = [await source.next(), await target.next()];
    }
  }
}

/** What differs between two records at one position. */
function recordsDiffer(a: StoredRecord, b: StoredRecord): string | null {
  if (a.id !== b.id) return `its position holds ${b.id} in the target`;
  if (a.rev !== b.rev) return `revision ${a.rev} → ${b.rev}`;
  if (apiJson(a.index) !== apiJson(b.index)) return `index ${apiJson(a.index)} → ${apiJson(b.index)}`;
  if (apiJson(a.doc) !== apiJson(b.doc)) return 'document';
  return null;
}

const blobsDiffer = (a: Blob, b: Blob): string | null =>
  a.contentType !== b.contentType ? `content type ${a.contentType} → ${b.contentType}` : a.data.equals(b.data) ? null : 'content';

/**
 * Compares two stores object by object (docs/operations.md §Migration): each kind's objects are walked in position
 * order in both at once, so an object is equal only at the same position with the same id, revision, index fields and
 * document; blobs are walked by id and compared by content type and bytes; counters by value.
 */
export async function verifyStores(from: Store, to: Store, page: number, blobPage: number): Promise<VerifyReport> {
  const same = {} as VerifyReport['same'];
  const differences: Difference[] = [];
  const tally = (what: Difference['what'], id: string, how: string | null) => {
    if (how) differences.push({ what, id, how });
    else same[what]++;
  };
  for (const kind of KINDS) {
    same[kind] = 0;
    const records = (store: Store) =>
      each(
        paged(
          (after: number | undefined) => store.transfer.exportRecords(kind, after, page),
          (r) => r.seq,
          page,
        ),
      );
    await merge(
      records(from),
      records(to),
      (r) => r.seq,
      recordsDiffer,
      (r, how) => tally(kind, r.id, how),
    );
  }
  same.blobs = 0;
  const blobs = (store: Store) =>
    each(
      paged(
        (after: string | undefined) => store.transfer.exportBlobs(after, blobPage),
        (b) => b.id,
        blobPage,
      ),
    );
  await merge(
    blobs(from),
    blobs(to),
    (b) => b.id,
    blobsDiffer,
    (b, how) => tally('blobs', b.id, how),
  );
  same.counters = 0;
  const targetCounters = new Map((await to.transfer.exportCounters()).map((c) => [c.name, c.value]));
  for (const { name, value } of await from.transfer.exportCounters()) {
    const copy = targetCounters.get(name);
    tally('counters', name, copy === value ? null : copy === undefined ? 'missing' : `${value} → ${copy}`);
  }
  return { same, differences };
}
