/**
 * The storage port: everything the domain asks of a store, in domain words.
 * Adapters (sqlite/, mongo/) implement it; nothing outside src/store knows a query language.
 */

/** Collections the registry keeps. */
export const KINDS = ['tenders', 'frameworks', 'submissions', 'qualifications', 'agreements', 'contracts', 'plans', 'transfers'] as const;
export type Kind = (typeof KINDS)[number];

/**
 * A JSON document as the domain stores it (internal fields included: owner token hashes, revisions…). Its shape is
 * the domain's (`domain/core/object-doc.ts`); the store reads only `data` and `config` of it.
 */
export type StoredDoc = Record<string, any>;

/** An object as stored: the document plus the bookkeeping the store maintains. */
export interface Stored {
  kind: Kind;
  id: string;
  /** Optimistic-concurrency revision: 1 on insert, +1 on every update. */
  rev: number;
  /**
   * Feed position: float UNIX seconds in microsecond steps (docs/platform.md §Feeds), unique per kind. A feed read
   * never lists a position before another commit that can still land below it, so paging by it misses nothing.
   */
  seq: number;
  doc: StoredDoc;
}

/** Index columns derived from a document on every write; feeds and checks query only these. */
export interface Indexed {
  /** Listed in feeds (drafts and deleted objects are not). */
  isPublic: boolean;
  /** `mode: "test"` objects are hidden from feeds unless asked for. */
  isTest: boolean;
  /** Epoch milliseconds of the next automatic check, or null. */
  nextCheck: number | null;
}

/** One RFC 6902 operation of a revision's way back (`Change.back`). */
export type PatchOp = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

export type Change =
  | { op: 'insert'; kind: Kind; id: string; doc: StoredDoc; index: Indexed }
  | {
      op: 'update';
      kind: Kind;
      id: string;
      expectedRev: number;
      doc: StoredDoc;
      index: Indexed;
      /**
       * The way back from this version to the one before: operations that turn this change's `{data, config}` into
       * the stored one's. Kept as the object's revision, in the same commit (docs/architecture.md §Revision history).
       */
      back?: PatchOp[];
      /**
       * Set when the update changes only members no reader is shown (the object's `data` and `config` are as stored):
       * the object keeps this, its feed position, so the commit moves it in no feed and changes no view
       * (docs/architecture.md §Hidden changes). The revision still rises and is still checked.
       */
      keepsPosition?: number;
    };

/** An update that keeps its object's feed position (`keepsPosition`). */
export const isHiddenChange = (change: Change): change is Change & { op: 'update'; keepsPosition: number } =>
  change.op === 'update' && change.keepsPosition !== undefined;

/**
 * A number drawn from a named counter (e.g. `tenderID:2026-11-22`) for a commit. Numbers are unique and rise on
 * each node; a refused commit may use one up, as the reference's counters do. On MongoDB a node draws them a block
 * at a time before the write, so across nodes they interleave by block and a stopped node leaves gaps
 * (docs/mongodb.md §Pretty-id numbers on MongoDB).
 */
export interface Numbering {
  counter: string;
  /** Writes the number into the changes' documents; called before they are stored, again if the store retries. */
  assign(value: number): void;
}

export interface FeedQuery {
  kind: Kind;
  /** Exclusive seq bound: after it ascending, before it descending; undefined = from the start/end. */
  offset?: number;
  /** Exclusive seq bound on the far side: before it ascending, after it descending; undefined = none. */
  until?: number;
  descending: boolean;
  limit: number;
  /** 'live' = only non-test objects, 'test' = only test objects, 'all' = both. */
  mode: 'live' | 'test' | 'all';
  /** Only objects whose `data.frameworkID` is this (a framework's submissions or qualifications). */
  frameworkID?: string;
}

/** A feed page of a few `data` fields per object (`StoreSession.feedListing`). */
export interface ListingQuery extends FeedQuery {
  /** The `data` fields of an entry, in the order the entry lists them. */
  listed: readonly string[];
  /** The `data` fields the feed reads of a restricted object, besides the listed ones, to decide what to show. */
  reads: readonly string[];
}

/**
 * One object of a listing page. An object whose `config.restricted` is unset (absent, null, false or 0) comes
 * as `json`: UTF-8 JSON of an object of the listed fields it has, in the order listed, byte for byte as
 * JSON.stringify writes them. Any other comes as `doc`: `config.restricted` and the listed and read fields it
 * has, for the feed to mask; it may be frozen and shared with other readers (masking copies what it hides).
 */
export type Listing = { seq: number; json: Buffer } | { seq: number; doc: StoredDoc };

/**
 * Restricted objects hide parts of themselves from some readers (docs/platform.md §Restricted access); every other object is
 * shown whole to every reader. The port states it because `getView` answers by it.
 */
export const isRestricted = (doc: StoredDoc): boolean => doc.config?.restricted === true;

/**
 * An object as `GET /{kind}/{id}` shows it. One that is not restricted (`isRestricted`) is the same for every
 * reader, so it comes as `json`: UTF-8 JSON of `{data, config}`, each member only if stored, byte for byte as
 * JSON.stringify writes them. A restricted one comes as stored, for the domain to mask.
 */
export type ObjectView = ({ seq: number; json: Buffer } | Stored) & {
  /** What the store may set on a KeptVersion of this view at once (`KeptVersion.confirmed`), sparing the next read. */
  confirmed?: unknown;
};

/**
 * A version of an object a reader keeps something rendered from: its commit `seq`, and `confirmed`, which
 * `getView` sets when it finds that version current and may later read to answer without asking for the object
 * (opaque to the reader, which keeps it with the rendering).
 */
export interface KeptVersion {
  readonly seq: number;
  confirmed?: unknown;
}

/**
 * One version of an object as readers could be shown it (docs/architecture.md §Revision history): each commit that
 * gives the object a feed position keeps one; a hidden change keeps none.
 */
export interface Revision {
  /** The version's feed position: its commit, UNIX seconds. */
  seq: number;
  /** Whom the commit was made for: a broker's or system role's name (`Store.session`); never a token. */
  author: string;
  /** Operations turning this version's `{data, config}` into the previous version's; empty for the first. */
  back: PatchOp[];
}

/** An object due for its automatic check. */
export interface Due {
  kind: Kind;
  id: string;
  nextCheck: number;
}

/** Stored file content (submission and qualification documents). */
export interface Blob {
  id: string;
  contentType: string;
  data: Buffer;
}

/**
 * Opaque, JSON-serialisable position in the store's history that a client has seen.
 * SQLite: `{ seq }`; MongoDB: `{ clusterTime, operationTime }` as extended JSON.
 */
export type CausalToken = Record<string, unknown>;

/**
 * One client's view of the store for one request. Reads never return state older than the causal
 * token the session was opened with; `token()` afterwards covers every operation made through it.
 */
export interface StoreSession {
  get(kind: Kind, id: string): Promise<Stored | null>;
  /**
   * The object's `ObjectView`, or `'unchanged'` while it is still at the `kept` version (nothing is then read): a
   * reader that keeps a rendering of one version checks it without loading the document again.
   */
  getView(kind: Kind, id: string, kept?: KeptVersion): Promise<ObjectView | 'unchanged' | null>;
  getMany(kind: Kind, ids: string[]): Promise<Stored[]>;
  /** The object's revisions, oldest first (those kept since it was created, or since history began to be kept). */
  history(kind: Kind, id: string): Promise<Revision[]>;
  /**
   * Applies all changes atomically. An update whose expectedRev no longer matches, or an insert of an
   * existing id, throws StoreConflict and writes nothing. With `numbering`, the counter's next value (shared with
   * `nextCounter`) is assigned before the changes are written.
   */
  commit(changes: Change[], numbering?: Numbering): Promise<Stored[]>;
  feed(query: FeedQuery): Promise<Stored[]>;
  /** The same page as `feed`, of only the fields a feed lists: a page of 100 costs a fraction of 100 documents. */
  feedListing(query: ListingQuery): Promise<Listing[]>;
  /**
   * Whether every position of `kind` below `bound` is taken for good: no commit can take one below it any more, and
   * every commit that took one is visible to this session's later reads. SQLite makes it so once the wall clock has
   * passed `bound`; MongoDB answers by its watermark (docs/platform.md §Feeds: a page ends on a tick's bound only then).
   */
  sealedBelow(kind: Kind, bound: number): Promise<boolean>;
  /** Next value of a named counter (e.g. `tenderID:2026-11-22`), unique across nodes. */
  nextCounter(name: string): Promise<number>;
  putBlob(blob: Blob): Promise<void>;
  getBlob(id: string): Promise<Blob | null>;
  token(): CausalToken;
}

/** An object exactly as stored: what a copy of the store carries, index fields and revisions included. */
export interface StoredRecord extends Stored {
  index: Indexed;
  /** Its history, oldest first (docs/architecture.md §Revision history). */
  revisions: Revision[];
}

/** A named counter at its last value given out (or reserved: docs/mongodb.md §Pretty-id numbers on MongoDB). */
export interface CounterValue {
  name: string;
  value: number;
}

/**
 * Everything a store holds, read out and put back as it was, for copying one store into another (a move between
 * engines, a compaction, a logical backup and its restore: docs/operations.md §Migration).
 * Positions and revisions are copied, not assigned, so a reader's feed offset and a writer's revision hold on the
 * copy. Puts are idempotent: a copy interrupted and run again stores nothing twice.
 */
export interface StoreTransfer {
  /** How many objects of each kind, and how many blobs, the store holds. */
  count(): Promise<Record<Kind | 'blobs', number>>;
  /** Up to `limit` objects of `kind`, every one (those no feed lists too), in position order after `after`. */
  exportRecords(kind: Kind, after: number | undefined, limit: number): Promise<StoredRecord[]>;
  /**
   * Stores each record with its revision, position and index fields, unless the store holds that object at the same or
   * a later revision; returns how many it stored. A position that another object of the kind holds throws
   * StoreConflict('exists'). Commits after it take positions after every record put (on MongoDB, as ever, by the
   * wall clock: docs/operations.md §Migration).
   */
  importRecords(records: StoredRecord[]): Promise<number>;
  /** Up to `limit` blobs in id order after `after`. */
  exportBlobs(after: string | undefined, limit: number): Promise<Blob[]>;
  /** Stores each blob the store does not hold yet; returns how many it stored. */
  importBlobs(blobs: Blob[]): Promise<number>;
  /** Every named counter (those of `nextCounter` and of `Numbering`). */
  exportCounters(): Promise<CounterValue[]>;
  /** Raises each counter to at least its value, so no number given out is given again; returns how many it raised. */
  importCounters(counters: CounterValue[]): Promise<number>;
}

export interface Store {
  readonly engine: 'sqlite' | 'mongodb';
  readonly transfer: StoreTransfer;
  /** A session at the causal position `token`; its commits are kept in history as made for `author`. */
  session(token?: CausalToken, author?: string): StoreSession;
  /** Objects whose next check is at or before `nowMs`, earliest first. */
  due(nowMs: number, limit: number): Promise<Due[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class StoreConflict extends Error {
  constructor(readonly reason: 'revision' | 'exists') {
    super(reason === 'revision' ? 'stale revision' : 'document exists');
    this.name = 'StoreConflict';
  }
}

/**
 * The store could not answer in time or at all (network, primary change). Reaches clients as 503. A write is known
 * not made unless `outcomeUnknown`: then the store could not learn whether it landed (docs/cluster.md §Outcome unknown).
 */
export class StoreUnavailable extends Error {
  name = 'StoreUnavailable';
  readonly outcomeUnknown: boolean;

  constructor(message: string, options: { cause?: unknown; outcomeUnknown?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}
