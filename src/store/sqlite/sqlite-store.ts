import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type Blob,
  type CausalToken,
  type Change,
  type Due,
  type FeedQuery,
  type Kind,
  type Listing,
  type ListingQuery,
  type Numbering,
  type ObjectView,
  type Store,
  type StoreSession,
  type Stored,
  StoreConflict,
  StoreUnavailable,
} from '../port';
import { listedAndRead } from '../listing';
import { fromMicros, positionsAfter, toMicros } from '../feed-position';
import { SCHEMA } from './schema';
import { groupCommits } from './group-commit';
import { commitBatchSize } from '../../metrics';
import { apiJson } from '../api-json';

interface Row {
  kind: Kind;
  id: string;
  rev: number;
  seq: number;
  doc: string;
}

export interface SqliteOptions {
  /** How long a writer waits for another process's write lock before the request fails with 503. */
  busyTimeoutMs?: number;
  /** How long a session whose causal token is ahead of this connection's view waits for it (then serves). */
  catchUpTimeoutMs?: number;
  /**
   * SQLite's page cache, in MiB (its default is 2). The bulk loader's commits of thousands of random ids touch
   * most pages of the primary-key indexes; with a cache that holds them, each is written once per commit.
   */
  cacheMiB?: number;
  /**
   * TEST ONLY (TEST_STALE_READS): reads come from a snapshot refreshed this often and ignore the causal
   * token, so the consistency checker can prove it catches a node that breaks the session guarantees.
   */
  staleReadsMs?: number;
  /** Wall clock (epoch ms) that feed positions follow; tests inject it. */
  clock?: () => number;
}

const CATCH_UP_POLL_MS = 5;

const toStored = (row: Row): Stored => ({ kind: row.kind, id: row.id, rev: row.rev, seq: row.seq, doc: JSON.parse(row.doc) });

/**
 * A listing row, raw (an array: measured 20-60 µs a page of 100 cheaper than an object): the seq, and the entry's
 * JSON as a BLOB for an unrestricted object or a doc's JSON as TEXT for a restricted one.
 */
type ListingRow = [seq: number, entry: Buffer | string];

const toListing = ([seq, entry]: ListingRow): Listing =>
  typeof entry === 'string' ? { seq, doc: JSON.parse(entry) } : { seq, json: entry };

/**
 * SQL building the JSON text of an object of the members the document has: a member is its `,"name":` key and
 * the value at its path, or nothing where that value is absent (`->` gives NULL). SQLite renders stored JSON
 * exactly as JSON.stringify wrote it, so the text needs no parse and re-stringify.
 */
const objectOf = (members: { key: string; path: string }[]) =>
  members.length === 0
    ? "'{}'"
    : `'{' || substr(${members.map(({ key, path }) => `coalesce(${key} || (doc -> ${path}), '')`).join(' || ')}, 2) || '}'`;

/** The object of `count` data fields bound as @keyI (`,"name":`) and @pathI. */
const fieldsObject = (count: number) => objectOf(Array.from({ length: count }, (_, i) => ({ key: `@key${i}`, path: `@path${i}` })));

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
type ViewRow = [seq: number, rev: number, entry: Buffer | string | null];

/** A document's framework, as the index objects_feed_by_framework (schema.ts) computes it. */
const FRAMEWORK_ID = "doc ->> '$.data.frameworkID'";

/** Absent, null, false and 0 (`->>` gives NULL, 0, 0): objects whose entry is their listed fields as stored. */
const UNRESTRICTED = "coalesce(doc ->> '$.config.restricted', 0) = 0";

/**
 * The embedded store: one SQLite file in WAL mode that several node processes may share. Writers are
 * serialised by SQLite (BEGIN IMMEDIATE), so `seq`, the feed position taken inside the write transaction
 * (max(previous + 1 µs, now), docs/platform.md §Feeds), follows commit order and a feed crawler paging by `seq`
 * can never miss a commit.
 */
export function openSqliteStore(path: string, options: SqliteOptions = {}): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // Documents are 10-20 KB: 16 KB pages halve their overflow chains. Takes effect only on a new file.
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  db.pragma('synchronous = NORMAL');
  if (options.cacheMiB) db.pragma(`cache_size = -${options.cacheMiB * 1024}`);
  db.exec(SCHEMA);
  const stale = options.staleReadsMs ? staleSnapshot(path, options.staleReadsMs) : null;
  const reader = stale?.db ?? db;

  const sql = {
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
    counter: db.prepare<[string], { value: number }>(
      'INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value',
    ),
    putBlob: db.prepare('INSERT OR REPLACE INTO blobs (id, content_type, data) VALUES (?, ?, ?)'),
    getBlob: db.prepare<[string], { id: string; content_type: string; data: Buffer }>(
      'SELECT id, content_type, data FROM blobs WHERE id = ?',
    ),
    // `LIMIT ? + 0`, not a bare bound LIMIT, which prepares the statement again on every call (see feedStatement).
    due: db.prepare<[number, number], { kind: Kind; id: string; next_check: number }>(
      'SELECT kind, id, next_check FROM objects WHERE next_check IS NOT NULL AND next_check <= ? ORDER BY next_check LIMIT ? + 0',
    ),
  };
  /** Feed statements by query shape; the columns' SQL depends on nothing else, values are bound. */
  const feedStatements = new Map<string, Database.Statement>();
  const feedStatement = (q: FeedQuery, columns: string) => {
    const key = `${q.mode}:${q.descending}:${q.offset !== undefined}:${q.until !== undefined}:${q.frameworkID !== undefined}:${columns}`;
    let stmt = feedStatements.get(key);
    if (!stmt) {
      const where = ['kind = @kind', 'is_public = 1'];
      if (q.mode !== 'all') where.push('is_test = @isTest');
      // The very expression of the index objects_feed_by_framework, so the listing reads only that framework's rows.
      if (q.frameworkID !== undefined) where.push(`${FRAMEWORK_ID} = @frameworkID`);
      if (q.offset !== undefined) where.push(q.descending ? 'seq < @offset' : 'seq > @offset');
      if (q.until !== undefined) where.push(q.descending ? 'seq > @until' : 'seq < @until');
      // `+ 0`: SQLite plans with the value of a bare bound LIMIT, so binding another (even the same) value made
      // every call prepare the statement again, 60-80 µs of a page.
      stmt = reader.prepare(
        `SELECT ${columns} FROM objects WHERE ${where.join(' AND ')} ORDER BY seq ${q.descending ? 'DESC' : 'ASC'} LIMIT @limit + 0`,
      );
      feedStatements.set(key, stmt);
    }
    return stmt;
  };
  const feedParams = (q: FeedQuery): Record<string, unknown> => ({
    kind: q.kind,
    isTest: q.mode === 'test' ? 1 : 0,
    offset: q.offset,
    until: q.until,
    limit: q.limit,
    frameworkID: q.frameworkID,
  });
  const listingColumns = (listed: number, fields: number) =>
    `seq, CASE WHEN ${UNRESTRICTED} THEN CAST(${fieldsObject(listed)} AS BLOB) ` +
    `ELSE '{"config":{"restricted":' || (doc -> '$.config.restricted') || '},"data":' || ${fieldsObject(fields)} || '}' END`;

  const catchUpTimeoutMs = options.catchUpTimeoutMs ?? 1000;

  // A mark of the store's history: replaced whenever this process commits (before it reads again: a batch of
  // commits is applied synchronously) and whenever `PRAGMA data_version` shows that another connection has
  // committed. It reads the file's WAL state in a read transaction of its own, so it sees every commit made before
  // it is taken. A kept version found current after a mark was taken is therefore current while the mark stays the
  // same. The stale test snapshot is checked object by object, as its reads lag on purpose.
  const dataVersion = reader.prepare<[], number>('PRAGMA data_version').pluck();
  let mark: object = {};
  let markedVersion = -1;
  const historyMark = (): object | null => {
    if (stale) return null;
    const version = dataVersion.get()!;
    if (version !== markedVersion) {
      markedVersion = version;
      mark = {};
    }
    return mark;
  };

  // With one shared file every commit is visible at once; a token ahead of our view means a writer we cannot
  // see yet (or another database altogether), so wait a bounded time and then serve what there is.
  // Commits are never un-seen, so a token at or below any seq this connection has met needs no query.
  let visible = 0;
  const catchUp = async (target: number) => {
    const deadline = Date.now() + catchUpTimeoutMs;
    while (target > visible) {
      visible = Math.max(
        visible,
        guard(() => sql.lastSeq.get()?.value ?? 0),
      );
      if (target <= visible || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
    }
  };

  const clock = options.clock ?? Date.now;
  // Positions rise from the counter, so every one below the counter's next is taken; once the wall clock has passed
  // a bound, raising the counter to it keeps that true whatever the clock does next (docs/platform.md §Feeds).
  const takenBelow = (bound: number) => toMicros(sql.lastSeq.get()!.value) + 1 >= bound;
  const raiseTo = db.transaction((bound: number) => {
    if (!takenBelow(bound)) sql.setLastSeq.run(fromMicros(bound - 1));
  });
  const sealBelow = (bound: number): boolean => {
    if (takenBelow(bound)) return true;
    if (clock() * 1000 < bound) return false;
    raiseTo.immediate(bound);
    return true;
  };
  const applyChanges = ({ changes, numbering }: { changes: Change[]; numbering?: Numbering }): Stored[] => {
    if (numbering) numbering.assign(sql.counter.get(numbering.counter)!.value);
    // One position per changed object, all taken by one counter update: a bulk load of 2,000 objects per commit
    // spent a fifth of its time advancing the counter row by row. Writers are serialised, so positions follow
    // commit order; a counter of an earlier version (a small integer) is simply below every time.
    const positions = positionsAfter(sql.lastSeq.get()!.value, clock(), changes.length);
    sql.setLastSeq.run(positions[positions.length - 1]);
    return changes.map((change, i) => {
      const seq = positions[i];
      const params = {
        kind: change.kind,
        id: change.id,
        seq,
        isPublic: change.index.isPublic ? 1 : 0,
        isTest: change.index.isTest ? 1 : 0,
        nextCheck: change.index.nextCheck,
        doc: apiJson(change.doc),
      };
      let rev: number;
      if (change.op === 'insert') {
        try {
          sql.insert.run(params);
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new StoreConflict('exists');
          throw err;
        }
        rev = 1;
      } else {
        const result = sql.update.run({ ...params, expectedRev: change.expectedRev });
        if (result.changes !== 1) throw new StoreConflict('revision');
        rev = change.expectedRev + 1;
      }
      return { kind: change.kind, id: change.id, rev, seq, doc: change.doc };
    });
  };

  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new StoreUnavailable('the store is busy');
      throw err;
    }
  };

  /** A waiting commit that changes one of these objects: a read of them applies the waiting batch first. */
  const changingAnyOf =
    (kind: Kind, ids: readonly string[]) =>
    ({ changes }: { changes: Change[] }) =>
      changes.some((c) => c.kind === kind && ids.includes(c.id));

  const commits = groupCommits(db, applyChanges, (transaction, size) => {
    commitBatchSize.observe(size);
    try {
      return guard(transaction);
    } finally {
      mark = {};
    }
  });

  const session = (token?: CausalToken): StoreSession => {
    let seen = typeof token?.seq === 'number' ? token.seq : 0;
    const see = (seq: number) => {
      if (seq > seen) seen = seq;
      if (!stale && seq > visible) visible = seq;
    };
    let caughtUp: Promise<void> | null = stale ? Promise.resolve() : null;
    const ready = () => (caughtUp ??= catchUp(seen));
    return {
      async get(kind, id) {
        await ready();
        commits.flushIf(changingAnyOf(kind, [id]));
        const row = guard(() => sql.get.get(kind, id));
        if (!row) return null;
        see(row.seq);
        return toStored(row);
      },
      async getView(kind, id, kept): Promise<ObjectView | 'unchanged' | null> {
        await ready();
        const current = kept && guard(historyMark);
        if (current && kept.confirmed === current) {
          see(kept.seq);
          return 'unchanged';
        }
        const row = guard(() => sql.getView.get({ kind, id, knownSeq: kept?.seq ?? null }) as ViewRow | undefined);
        if (!row) return null;
        const [seq, rev, entry] = row;
        see(seq);
        if (entry === null) {
          kept!.confirmed = current;
          return 'unchanged';
        }
        return typeof entry === 'string' ? toStored({ kind, id, rev, seq, doc: entry }) : { seq, json: entry };
      },
      async getMany(kind, ids) {
        await ready();
        commits.flushIf(changingAnyOf(kind, ids));
        const rows = ids.map((id) => guard(() => sql.get.get(kind, id))).filter((r): r is Row => !!r);
        rows.forEach((r) => see(r.seq));
        return rows.map(toStored);
      },
      async commit(changes, numbering) {
        await ready();
        const saved = await commits.commit({ changes, numbering });
        saved.forEach((s) => see(s.seq));
        return saved;
      },
      async feed(q) {
        await ready();
        const rows = guard(() => feedStatement(q, 'kind, id, rev, seq, json(doc) AS doc').all(feedParams(q)) as Row[]);
        rows.forEach((r) => see(r.seq));
        return rows.map(toStored);
      },
      async feedListing(q: ListingQuery) {
        await ready();
        const fields = listedAndRead(q);
        const params = feedParams(q);
        fields.forEach((field, i) => {
          params[`key${i}`] = `,${JSON.stringify(field)}:`;
          params[`path${i}`] = `$.data."${field}"`;
        });
        const statement = feedStatement(q, listingColumns(q.listed.length, fields.length));
        const rows = guard(() => statement.raw().all(params) as ListingRow[]);
        rows.forEach(([seq]) => see(seq));
        return rows.map(toListing);
      },
      async sealedBelow(_kind, bound) {
        await ready();
        return guard(() => sealBelow(toMicros(bound)));
      },
      async nextCounter(name) {
        return guard(() => sql.counter.get(name)!.value);
      },
      async putBlob(blob: Blob) {
        guard(() => sql.putBlob.run(blob.id, blob.contentType, blob.data));
      },
      async getBlob(id) {
        await ready();
        const row = guard(() => sql.getBlob.get(id));
        return row ? { id: row.id, contentType: row.content_type, data: row.data } : null;
      },
      // Everything this connection has met is part of what a read here sees, so the token may name all of it: one
      // position for all sessions until the next commit, instead of one per object read, so the SESSION values
      // a node signs grow with its commits, not with the distinct objects its readers open.
      token: () => ({ seq: Math.max(seen, visible) }),
    };
  };

  return {
    engine: 'sqlite',
    session,
    async due(nowMs, limit): Promise<Due[]> {
      return guard(() => sql.due.all(nowMs, limit)).map((r) => ({ kind: r.kind, id: r.id, nextCheck: r.next_check }));
    },
    async ping() {
      guard(() => sql.lastSeq.get());
    },
    async close() {
      stale?.close();
      db.close();
    },
  };
}

/** TEST ONLY: a second connection holding a read transaction, so it keeps seeing the file as it was. */
function staleSnapshot(path: string, refreshMs: number) {
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
