import type { Blob, CausalToken, Change, Kind, ObjectView, Stored, StoreSession } from '../port';
import type { GroupCommit } from './group-commit';
import type { Commit } from './apply-changes';
import type { CausalCatchUp } from './causal-catch-up';
import type { FeedStatements } from './feed-statements';
import type { HistoryMark } from './history-mark';
import { revisionHistory } from './revision-history';
import { toStored, type Row, type Statements, type ViewRow } from './statements';
import { guard } from './sqlite-errors';

/**
 * What sessions share. `catchUp` and `marks` are null when reads come from the test-only stale snapshot
 * (stale-snapshot.ts): its reads ignore the causal token and lag on purpose, so kept views are checked object by
 * object.
 */
export interface SqliteParts {
  sql: Statements;
  feeds: FeedStatements;
  commits: GroupCommit<Commit, Stored[]>;
  catchUp: CausalCatchUp | null;
  marks: HistoryMark | null;
  /** Whether every position below a bound is taken for good (feed-seal.ts). */
  sealBelow: (bound: number) => boolean;
}

/** A waiting commit that changes one of these objects: a read of them applies the waiting batch first. */
const changingAnyOf =
  (kind: Kind, ids: readonly string[]) =>
  ({ changes }: { changes: Change[] }) =>
    changes.some((c) => c.kind === kind && ids.includes(c.id));

/** A StoreSession on the SQLite file: reads wait (a bounded time) until this connection sees the token's position. */
export function sqliteSession(
  { sql, feeds, commits, catchUp, marks, sealBelow }: SqliteParts,
  token?: CausalToken,
  author = 'unknown',
): StoreSession {
  let seen = typeof token?.seq === 'number' ? token.seq : 0;
  const see = (seq: number) => {
    if (seq > seen) seen = seq;
    catchUp?.see(seq);
  };
  let caughtUp: Promise<void> | null = null;
  const ready = () => (caughtUp ??= catchUp ? catchUp.reach(seen) : Promise.resolve());
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
      // Taken before the read: the version read is current after it, so it stays current while the mark does.
      const current = marks ? guard(() => marks.current()) : undefined;
      if (kept && current && kept.confirmed === current) {
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
      const view = typeof entry === 'string' ? toStored({ kind, id, rev, seq, doc: entry }) : { seq, json: entry };
      return { ...view, confirmed: current };
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
      const saved = await commits.commit({ changes, numbering, author });
      saved.forEach((s) => see(s.seq));
      return saved;
    },
    async history(kind, id) {
      await ready();
      commits.flushIf(changingAnyOf(kind, [id]));
      return revisionHistory(sql, kind, id);
    },
    async feed(q) {
      await ready();
      const stored = guard(() => feeds.feed(q));
      stored.forEach((s) => see(s.seq));
      return stored;
    },
    async feedListing(q) {
      await ready();
      const listings = guard(() => feeds.listing(q));
      listings.forEach(({ seq }) => see(seq));
      return listings;
    },
    async sealedBelow(_kind, bound) {
      await ready();
      return guard(() => sealBelow(bound));
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
    token: () => ({ seq: Math.max(seen, catchUp?.visible ?? 0) }),
  };
}
