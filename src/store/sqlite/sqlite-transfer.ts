import type Database from 'better-sqlite3';
import { KINDS, StoreConflict, type Blob, type CounterValue, type Kind, type StoreTransfer, type StoredRecord } from '../port';
import { apiJson } from '../api-json';
import { toMicros } from '../feed-position';
import { revisionsFrom } from './revision-history';
import { guard } from './sqlite-errors';

interface RecordRow {
  kind: Kind;
  id: string;
  rev: number;
  seq: number;
  is_public: number;
  is_test: number;
  next_check: number | null;
  doc: string;
}

/** Below every position: the first stored is 1 (a counter of an earlier version) or a time. */
const BEFORE_ALL = -1;

const toRecord = (row: RecordRow, revisions: StoredRecord['revisions']): StoredRecord => ({
  kind: row.kind,
  id: row.id,
  rev: row.rev,
  seq: row.seq,
  doc: JSON.parse(row.doc),
  index: { isPublic: row.is_public === 1, isTest: row.is_test === 1, nextCheck: row.next_check },
  revisions,
});

/**
 * The embedded store read out and put back (port.ts `StoreTransfer`). Objects are read by the unique index on
 * (kind, seq); a batch of puts is one write transaction that also moves the `__seq__` counter past every position
 * put, so the next commit's position is after them (docs/architecture.md §SQLite engine). `changed` tells the store
 * that kept versions may be stale.
 */
export function sqliteTransfer(db: Database.Database, changed: () => void): StoreTransfer {
  const sql = {
    counts: db.prepare<[], { kind: Kind | 'blobs'; count: number }>(
      "SELECT kind, count(*) AS count FROM objects GROUP BY kind UNION ALL SELECT 'blobs', count(*) FROM blobs",
    ),
    records: db.prepare<[Kind, number, number], RecordRow>(
      'SELECT kind, id, rev, seq, is_public, is_test, next_check, json(doc) AS doc FROM objects WHERE kind = ? AND seq > ? ORDER BY seq LIMIT ? + 0',
    ),
    putRecord: db.prepare(
      'INSERT INTO objects (kind, id, rev, seq, is_public, is_test, next_check, doc) ' +
        'VALUES (@kind, @id, @rev, @seq, @isPublic, @isTest, @nextCheck, jsonb(@doc)) ' +
        'ON CONFLICT (kind, id) DO UPDATE SET rev = excluded.rev, seq = excluded.seq, is_public = excluded.is_public, ' +
        'is_test = excluded.is_test, next_check = excluded.next_check, doc = excluded.doc WHERE objects.rev < excluded.rev',
    ),
    revision: db.prepare<[string, number], { previous: number | null; author: string; back: string }>(
      'SELECT previous, author, json(back) AS back FROM object_revisions WHERE kind = ? AND pos = ?',
    ),
    putRevision: db.prepare(
      'INSERT OR IGNORE INTO object_revisions (kind, pos, previous, id, author, back) VALUES (@kind, @pos, @previous, @id, @author, jsonb(@back))',
    ),
    raiseLastSeq: db.prepare<[number]>("UPDATE counters SET value = max(value, ?) WHERE name = '__seq__'"),
    blobs: db.prepare<[string, number], { id: string; content_type: string; data: Buffer }>(
      'SELECT id, content_type, data FROM blobs WHERE id > ? ORDER BY id LIMIT ? + 0',
    ),
    putBlob: db.prepare('INSERT OR IGNORE INTO blobs (id, content_type, data) VALUES (?, ?, ?)'),
    counters: db.prepare<[], CounterValue>("SELECT name, value FROM counters WHERE name <> '__seq__' ORDER BY name"),
    raiseCounter: db.prepare(
      'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE value < excluded.value',
    ),
  };

  const putRecords = db.transaction((records: StoredRecord[]) => {
    let put = 0;
    for (const r of records) {
      const params = {
        kind: r.kind,
        id: r.id,
        rev: r.rev,
        seq: r.seq,
        isPublic: r.index.isPublic ? 1 : 0,
        isTest: r.index.isTest ? 1 : 0,
        nextCheck: r.index.nextCheck,
        doc: apiJson(r.doc),
      };
      try {
        const stored = sql.putRecord.run(params).changes;
        put += stored;
        // Its history with it (docs/architecture.md §Revision history), each revision naming the one before.
        if (stored) {
          r.revisions.forEach((revision, i) =>
            sql.putRevision.run({
              kind: r.kind,
              pos: toMicros(revision.seq),
              previous: i > 0 ? toMicros(r.revisions[i - 1].seq) : null,
              id: r.id,
              author: revision.author,
              back: JSON.stringify(revision.back),
            }),
          );
        }
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new StoreConflict('exists');
        throw err;
      }
    }
    if (records.length) sql.raiseLastSeq.run(Math.max(...records.map((r) => r.seq)));
    return put;
  });
  const putBlobs = db.transaction((blobs: Blob[]) =>
    blobs.reduce((put, b) => put + sql.putBlob.run(b.id, b.contentType, b.data).changes, 0),
  );
  const raiseCounters = db.transaction((counters: CounterValue[]) =>
    counters.reduce((raised, c) => raised + sql.raiseCounter.run(c.name, c.value).changes, 0),
  );

  return {
    async count() {
      const counts = Object.fromEntries([...KINDS, 'blobs'].map((kind) => [kind, 0])) as Record<Kind | 'blobs', number>;
      for (const { kind, count } of guard(() => sql.counts.all())) counts[kind] = count;
      return counts;
    },
    async exportRecords(kind, after, limit) {
      return guard(() => sql.records.all(kind, after ?? BEFORE_ALL, limit)).map((row) => toRecord(row, revisionsFrom(sql, kind, row.seq)));
    },
    async importRecords(records) {
      try {
        return guard(() => putRecords.immediate(records));
      } finally {
        changed();
      }
    },
    async exportBlobs(after, limit) {
      return guard(() => sql.blobs.all(after ?? '', limit)).map((row) => ({ id: row.id, contentType: row.content_type, data: row.data }));
    },
    async importBlobs(blobs) {
      return guard(() => putBlobs.immediate(blobs));
    },
    async exportCounters() {
      return guard(() => sql.counters.all());
    },
    async importCounters(counters) {
      return guard(() => raiseCounters.immediate(counters));
    },
  };
}
