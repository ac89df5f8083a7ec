/**
 * The embedded store's tables. `seq` orders feeds; one row per object holds its latest state.
 * `objects` is a rowid table: its rows carry whole documents (10-20 KB), and SQLite advises WITHOUT ROWID only
 * for rows under about 1/20 of a page; measured, a point read through the port took half the time.
 * `doc` holds SQLite JSONB (written with `jsonb()`, read with `json()`): a feed page takes the few fields it
 * lists with `->` without parsing whole documents. Text written by earlier versions reads the same way.
 * `object_revisions` keeps each version's way back (docs/architecture.md §Revision history), keyed by kind and
 * position in microseconds: positions rise, so every commit appends to the end of its kind's run of one B-tree. (An
 * earlier per-revision log, `revisions`, keyed by object, cost each commit a page of random inserts, WAL checkpoints
 * twice as often; files made by those versions keep that table, unused.) A revision names the position of the one
 * before, so an object's history is a chain read from its current position, with no index by object to keep up.
 * Positions are unique per kind (port.ts `Stored.seq`), not across kinds: a copy of a MongoDB store, whose kinds take
 * positions apart, may hold one position in two kinds (docs/operations.md §Migration). The index
 * `objects_position` also serves reading a kind out in position order; it replaces the earlier `objects_seq`.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS objects (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  rev INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  is_public INTEGER NOT NULL,
  is_test INTEGER NOT NULL,
  next_check INTEGER,
  doc TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);
DROP INDEX IF EXISTS objects_seq;
CREATE UNIQUE INDEX IF NOT EXISTS objects_position ON objects (kind, seq);
CREATE INDEX IF NOT EXISTS objects_feed_by_mode ON objects (kind, is_test, seq) WHERE is_public = 1;
CREATE INDEX IF NOT EXISTS objects_feed_all ON objects (kind, seq) WHERE is_public = 1;
CREATE INDEX IF NOT EXISTS objects_feed_by_framework ON objects (kind, doc ->> '$.data.frameworkID', seq) WHERE is_public = 1;
CREATE INDEX IF NOT EXISTS objects_due ON objects (next_check) WHERE next_check IS NOT NULL;
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS object_revisions (
  kind TEXT NOT NULL,
  pos INTEGER NOT NULL,
  previous INTEGER,
  id TEXT NOT NULL,
  author TEXT NOT NULL,
  back BLOB NOT NULL,
  PRIMARY KEY (kind, pos)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blobs (id TEXT PRIMARY KEY, content_type TEXT NOT NULL, data BLOB NOT NULL);
INSERT OR IGNORE INTO counters (name, value) VALUES ('__seq__', 0);
`;
