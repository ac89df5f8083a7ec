import type Database from 'better-sqlite3';
import type { Kind, Stored } from '../port';

/** An object's row, its document as JSON text. */
export interface Row {
  kind: Kind;
  id: string;
  rev: number;
  seq: number;
  doc: string;
}

export const toStored = (row: Row): Stored => ({ kind: row.kind, id: row.id, rev: row.rev, seq: row.seq, doc: JSON.parse(row.doc) });

/**
 * SQL building the JSON text of an object of the members the document has: a member is its `,"name":` key and
 * the value at its path, or nothing where that value is absent (`->` gives NULL). SQLite renders stored JSON
 * exactly as JSON.stringify wrote it, so the text needs no parse and re-stringify.
 */
export const objectOf = (members: { key: string; path: string }[]) =>
  members.length === 0
    ? "'{}'"
    : `'{' || substr(${members.map(({ key, path }) => `coalesce(${key} || (doc -> ${path}), '')`).join(' || ')}, 2) || '}'`;

/**
 * `{data, config}`, every reader's view of an unrestricted object. Literal, not bound: binding the four values
 * cost 4-5 µs of a 27 µs read.
 */
const VIEW = `CAST(${objectOf([
  { key: `',"data":'`, path: `'$.data'` },
  { key: `',"config":'`, path: `'$.config'` },
])} AS BLOB)`;

/** `isRestricted` (port.ts): `config.restricted` is JSON `true`. */
const RESTRICTED = "(doc -> '$.config.restricted') IS 'true'";

/**
 * A view row, raw: seq, rev, and NULL when the object is still at the known seq, its document's JSON as TEXT when
 * it is restricted, else its view's JSON as a BLOB.
 */
export type ViewRow = [seq: number, rev: number, entry: Buffer | string | null];

/**
 * The statements of point reads and writes, prepared once: writes on the file's connection, reads on `reader`
 * (the same connection, or the test-only stale snapshot).
 */
export function prepareStatements(db: Database.Database, reader: Database.Database) {
  return {
    get: reader.prepare<[string, string], Row>('SELECT kind, id, rev, seq, json(doc) AS doc FROM objects WHERE kind = ? AND id = ?'),
    getView: reader
      .prepare(
        `SELECT seq, rev, CASE WHEN seq = @knownSeq THEN NULL WHEN ${RESTRICTED} THEN json(doc) ELSE ${VIEW} END ` +
          'FROM objects WHERE kind = @kind AND id = @id',
      )
      .raw(),
    setLastSeq: db.prepare<[number]>("UPDATE counters SET value = ? WHERE name = '__seq__'"),
    lastSeq: db.prepare<[], { value: number }>("SELECT value FROM counters WHERE name = '__seq__'"),
    insert: db.prepare(
      'INSERT INTO objects (kind, id, rev, seq, is_public, is_test, next_check, doc) VALUES (@kind, @id, 1, @seq, @isPublic, @isTest, @nextCheck, jsonb(@doc))',
    ),
    update: db.prepare(
      'UPDATE objects SET rev = rev + 1, seq = @seq, is_public = @isPublic, is_test = @isTest, next_check = @nextCheck, doc = jsonb(@doc) WHERE kind = @kind AND id = @id AND rev = @expectedRev',
    ),
    // A hidden change (docs/architecture.md §Hidden changes): the object keeps its feed position.
    updateHidden: db.prepare(
      'UPDATE objects SET rev = rev + 1, is_public = @isPublic, is_test = @isTest, next_check = @nextCheck, doc = jsonb(@doc) WHERE kind = @kind AND id = @id AND rev = @expectedRev AND seq = @seq',
    ),
    // The object's position before this commit's update: the revision the new one follows.
    positionOf: db.prepare<[string, string], number>('SELECT seq FROM objects WHERE kind = ? AND id = ?').pluck(),
    revise: db.prepare(
      'INSERT OR IGNORE INTO object_revisions (kind, pos, previous, id, author, back) VALUES (@kind, @pos, @previous, @id, @author, jsonb(@back))',
    ),
    revision: reader.prepare<[string, number], { previous: number | null; author: string; back: string }>(
      'SELECT previous, author, json(back) AS back FROM object_revisions WHERE kind = ? AND pos = ?',
    ),
    counter: db.prepare<[string], { value: number }>(
      'INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value',
    ),
    putBlob: db.prepare('INSERT OR REPLACE INTO blobs (id, content_type, data) VALUES (?, ?, ?)'),
    getBlob: db.prepare<[string], { id: string; content_type: string; data: Buffer }>(
      'SELECT id, content_type, data FROM blobs WHERE id = ?',
    ),
    // `LIMIT ? + 0`, not a bare bound LIMIT, which prepares the statement again on every call (feed-statements.ts).
    due: db.prepare<[number, number], { kind: Kind; id: string; next_check: number }>(
      'SELECT kind, id, next_check FROM objects WHERE next_check IS NOT NULL AND next_check <= ? ORDER BY next_check LIMIT ? + 0',
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
