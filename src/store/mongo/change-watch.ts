import type { ChangeStream, ChangeStreamDocument, Db, Timestamp } from 'mongodb';
import { KINDS } from '../port';
import { FLOORS_COLLECTION } from './feed-floors';

/**
 * What a node knows of a kept version of an object (`KeptVersion.confirmed`): the store held it at `asOf`, and the
 * watch had delivered `gen` changes when that read began.
 */
export interface Confirmation {
  readonly epoch: number;
  readonly gen: number;
  readonly asOf: Timestamp;
}

/** Where a read began: a confirmation it makes is only as good as the watch at that moment. */
export interface WatchMark {
  readonly epoch: number;
  readonly gen: number;
}

export interface ChangeWatchOptions {
  /** Objects whose last change is remembered; past it the memory is dropped and kept versions are read again. */
  maxTouched?: number;
  /** Wait before opening the stream again after it failed (ms). */
  retryMs?: number;
  /** Pause between two getMores of the stream (ms): the most a change's delivery waits beyond the server's. */
  pollMs?: number;
}

const DEFAULT_MAX_TOUCHED = 100_000;
const DEFAULT_RETRY_MS = 1000;
const DEFAULT_POLL_MS = 20;
/** How long the server holds a getMore open while no change comes. */
const MAX_AWAIT_MS = 1000;

/**
 * Events that change a whole collection or the database at once (an operator's drop, rename or restore): every
 * kept version may be gone, so every confirmation is void. An `invalidate` also closes the stream.
 */
const WHOLESALE = new Set(['drop', 'rename', 'dropDatabase', 'invalidate']);

/** Only what the watch needs of an event: which object changed, to which position, and when; or that all may have. */
const PIPELINE = [
  {
    $match: {
      $or: [
        { 'ns.coll': { $in: [...KINDS, FLOORS_COLLECTION] } },
        { 'to.coll': { $in: KINDS } },
        { operationType: { $in: ['dropDatabase', 'invalidate'] } },
      ],
    },
  },
  {
    $project: {
      operationType: 1,
      ns: 1,
      documentKey: 1,
      clusterTime: 1,
      txnNumber: 1,
      'fullDocument.seq': 1,
      'fullDocument.rev': 1,
      'updateDescription.updatedFields.seq': 1,
      'updateDescription.updatedFields.rev': 1,
    },
  },
];

/**
 * What a kept thing was made from: a view, from what readers see, which only a new feed position changes; a
 * document, from one revision, which a hidden change (docs/architecture.md §Hidden changes) changes too.
 */
export type KeptAs = { readonly seq: number } | { readonly rev: number };

/**
 * A change to an object: the watch's count of changes when it came, and the object's position and revision after it
 * (NaN where unknown: an update that kept the position names none).
 */
interface Change {
  gen: number;
  seq: number;
  rev: number;
  /** When it was committed, if known. */
  at?: Timestamp;
}

/**
 * The node's change stream over the object collections (docs/mongodb.md §Kept views on MongoDB). It lets a read
 * confirm a kept version without asking the store: the version is current if no change to that object has arrived
 * since a store read found it, and the reader's session has seen nothing later than the stream has delivered (or
 * than that store read). Every other case reads the store, as before: a stream that is not open, a memory that was
 * dropped, a session ahead of the stream.
 */
export class ChangeWatch {
  private stream: ChangeStream | null = null;
  /** Changes delivered since the stream opened. */
  private gen = 0;
  /** Bumped whenever the stream closes or the memory is dropped: every confirmation made before is void. */
  private epoch = 0;
  private live = false;
  private stopped = false;
  /** Every change up to this cluster time has been delivered. */
  private progress: Timestamp | null = null;
  /** The cluster time of the last change delivered. */
  private latest: Timestamp | null = null;
  /** Object key → its last change delivered (or made here) since the stream opened. */
  private readonly touched = new Map<string, Change>();
  private retry: NodeJS.Timeout | null = null;
  private readonly maxTouched: number;
  private readonly retryMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly db: Db,
    options: ChangeWatchOptions = {},
  ) {
    this.maxTouched = options.maxTouched ?? DEFAULT_MAX_TOUCHED;
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  }

  /** Opens the stream; reads confirm nothing until it is established. A server without change streams only loses the shortcut. */
  start(): void {
    if (this.stopped || this.stream) return;
    const stream = this.db.watch(PIPELINE, { maxAwaitTimeMS: MAX_AWAIT_MS });
    this.stream = stream;
    // Emitted first with the answer to the stream's opening aggregate: changes from then on will be delivered.
    stream.on('resumeTokenChanged', () => {
      if (this.stream === stream) this.live = true;
    });
    void this.pump(stream);
  }

  /**
   * Delivers what each getMore brings, then waits `pollMs` before the next: under load a getMore brings every change
   * of the pause at once instead of costing the node a round trip per change.
   */
  private async pump(stream: ChangeStream): Promise<void> {
    try {
      while (this.stream === stream) {
        const event = await stream.tryNext();
        if (event?.operationType === 'invalidate') return this.reopen(stream);
        if (event) this.deliver(event);
        if (!event || stream.bufferedCount() === 0) await new Promise((resolve) => setTimeout(resolve, this.pollMs));
      }
    } catch {
      this.reopen(stream);
    }
  }

  /**
   * A command of the stream failed: the driver resumes it by itself (or `pump` reopens it), and meanwhile changes may
   * be made that it has not delivered. Every confirmation is void, and none is made, until the stream answers again
   * (docs/cluster.md §Faults exercised: a node served its kept version while its stream's getMore kept failing).
   */
  interrupted(): void {
    if (!this.live) return;
    this.live = false;
    this.progress = null;
    this.latest = null;
    this.forget();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const stream = this.stream;
    this.void();
    await stream?.close().catch(() => undefined);
  }

  /** Taken before a store read whose result may later be confirmed with `confirm`. */
  mark(): WatchMark | null {
    return this.live ? { epoch: this.epoch, gen: this.gen } : null;
  }

  /** A version a store read began at `mark` found current at `asOf`. */
  confirm(mark: WatchMark | null, asOf: Timestamp | undefined): Confirmation | undefined {
    return mark && asOf ? { ...mark, asOf } : undefined;
  }

  /**
   * Whether the object is still as `kept`, as confirmed, for a session that has seen `seen`: the last change to the
   * object delivered since the confirming read began (if any) is that version's own, and the session has seen nothing
   * the stream or that read has not.
   */
  isCurrent(kind: string, id: string, kept: KeptAs, confirmed: unknown, seen: Timestamp | undefined): confirmed is Confirmation {
    const confirmation = confirmed as Confirmation | undefined;
    if (!this.live || confirmation?.epoch !== this.epoch) return false;
    const last = this.touched.get(`${kind}/${id}`);
    const own = last && ('rev' in kept ? last.rev === kept.rev : last.seq === kept.seq);
    // Another version came after the read began, or after the time the read saw (a secondary behind the stream).
    if (last && !own && (last.gen > confirmation.gen || !last.at || last.at.greaterThan(confirmation.asOf))) return false;
    return !seen || !seen.greaterThan(confirmation.asOf) || (this.progress !== null && !seen.greaterThan(this.progress));
  }

  /**
   * This node stored the object at `seq` and `rev` (at `asOf`): every confirmation of an earlier version, made so far
   * or by a read under way, is void at once, before the stream delivers the change, so this node's readers see its own
   * commits immediately. Returns the confirmation of the new version.
   */
  changedHere(kind: string, id: string, { seq, rev }: { seq: number; rev: number }, asOf: Timestamp | undefined): Confirmation | undefined {
    this.touch(`${kind}/${id}`, { gen: this.gen + 1, seq, rev, at: asOf });
    return this.confirm(this.mark(), asOf);
  }

  /**
   * A commit found the object at another revision than this node read: every confirmation of it is void until the
   * stream delivers a change of it, so the writer's retry reads the store.
   */
  changedElsewhere(kind: string, id: string): void {
    this.touch(`${kind}/${id}`, { gen: this.gen + 1, seq: NaN, rev: NaN });
  }

  private touch(key: string, change: Change): void {
    if (this.touched.size >= this.maxTouched) this.forget();
    this.touched.set(key, change);
  }

  private deliver(event: ChangeStreamDocument): void {
    const { ns, documentKey, clusterTime, txnNumber, fullDocument, updateDescription } = event as ChangeStreamDocument & {
      ns?: { coll?: string };
      documentKey?: { _id?: unknown };
      clusterTime?: Timestamp;
      txnNumber?: unknown;
      fullDocument?: { seq?: unknown; rev?: unknown };
      updateDescription?: { updatedFields?: { seq?: unknown; rev?: unknown } };
    };
    this.gen++;
    if (WHOLESALE.has(event.operationType)) this.forget();
    else if (ns?.coll && ns.coll !== FLOORS_COLLECTION) {
      const written = fullDocument ?? updateDescription?.updatedFields;
      const numberOr = (value: unknown) => (typeof value === 'number' ? value : NaN);
      this.touch(`${ns.coll}/${String(documentKey?._id)}`, {
        gen: this.gen,
        seq: numberOr(written?.seq),
        rev: numberOr(written?.rev),
        at: clusterTime,
      });
    }
    if (!clusterTime) return;
    // A transaction's changes share one cluster time and may arrive in several batches: only a later time proves
    // they have all been delivered. A single write has its cluster time to itself.
    if (this.latest && clusterTime.greaterThan(this.latest)) this.progress = this.latest;
    this.latest = clusterTime;
    if (txnNumber === undefined) this.progress = clusterTime;
  }

  /** Drops the memory of changed objects: every confirmation made so far is void and will be read again. */
  private forget(): void {
    this.touched.clear();
    this.epoch++;
  }

  private void(): void {
    this.live = false;
    this.progress = null;
    this.latest = null;
    this.stream = null;
    this.forget();
  }

  private reopen(failed: ChangeStream): void {
    if (this.stream !== failed) return;
    this.void();
    void failed.close().catch(() => undefined);
    if (this.stopped) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start();
    }, this.retryMs);
    this.retry.unref();
  }
}
