import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Due, Store } from '../port';
import { commitBatchSize } from '../../metrics';
import { changeApplier } from './apply-changes';
import { CausalCatchUp } from './causal-catch-up';
import { KeptListings } from '../kept-listings';
import { feedStatements } from './feed-statements';
import { feedSeal } from './feed-seal';
import { groupCommits } from './group-commit';
import { HistoryMark } from './history-mark';
import { SCHEMA } from './schema';
import { sqliteSession } from './sqlite-session';
import { staleSnapshot } from './stale-snapshot';
import { prepareStatements } from './statements';
import { guard } from './sqlite-errors';
import { sqliteTransfer } from './sqlite-transfer';

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
  /** Memory for feed entries kept by their positions (docs/performance.md §Feed entries kept on SQLite); 0 = none. */
  keptListingsBytes?: number;
}

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

  const sql = prepareStatements(db, reader);
  const marks = stale ? null : new HistoryMark(reader);
  const clock = options.clock ?? Date.now;
  const commits = groupCommits(db, changeApplier(sql, clock), (transaction, size) => {
    commitBatchSize.observe(size);
    try {
      return guard(transaction);
    } finally {
      marks?.renew();
    }
  });
  const parts = {
    sql,
    feeds: feedStatements(reader, options.keptListingsBytes === 0 ? undefined : new KeptListings(options.keptListingsBytes)),
    commits,
    catchUp: stale ? null : new CausalCatchUp(sql, options.catchUpTimeoutMs ?? 1000),
    marks,
    sealBelow: feedSeal(db, sql, clock),
  };

  return {
    engine: 'sqlite',
    session: (token, author) => sqliteSession(parts, token, author),
    transfer: sqliteTransfer(db, () => marks?.renew()),
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
