import { randomUUID } from 'node:crypto';
import type { ClientSession, Db } from 'mongodb';
import { applyTimes, laterTimes, type CausalTimes } from './causal-token';
import { feedDelay } from '../../metrics';
import { PositionClock } from '../feed-position';
import { StoreUnavailable } from '../port';

/**
 * One node's entry in the registry of feed floors (docs/mongodb.md §Feed ordering on MongoDB): every commit
 * of the node still unfinished, or yet to start, takes a position at or above `floor`. Written by its node only,
 * every heartbeat and when a feed read needs it, never by a commit.
 */
export interface FloorRecord {
  _id: string;
  floor: number;
  /** Bumped by every renewal: readers tell a live node from a dead one by seeing it change. */
  renewals: number;
}

export const FLOORS_COLLECTION = 'feedFloors';

/**
 * The `comment` of the heartbeat's commands: a slow-query log or `currentOp` tells them from a request's, and the
 * round-trip count (scripts/bench/round-trips.ts) leaves them out, as they belong to no request.
 */
export const HEARTBEAT_COMMENT = 'feed floors heartbeat';

const DEFAULT_HEARTBEAT_MS = 200;
const DEFAULT_LEASE_MS = 5000;

/**
 * The most a change can wait to be listed after it is acknowledged, with the default options, however skewed the
 * clocks (each heartbeat follows the highest floor): one heartbeat of every live node, or, after a node's death, its
 * lease and a heartbeat.
 */
export const FEED_DELAY_BOUND_MS = DEFAULT_LEASE_MS + 2 * DEFAULT_HEARTBEAT_MS;

export interface FeedFloorsOptions {
  /** How often the node renews its floor and reads the others' (default 200 ms). */
  heartbeatMs?: number;
  /**
   * A node whose renewals a reader has not seen change for this long is taken as dead and its floor ignored; a node
   * sends commits only within half of it since its last acknowledged renewal (default 5 s).
   */
  leaseMs?: number;
  /** Wall clock (epoch ms) that positions follow; tests inject skew through it. */
  clock?: () => number;
  /** Monotonic clock (ms) that leases are measured with. */
  monotonic?: () => number;
  /** TEST ONLY: awaited after a commit has its positions and before it is sent, to hold a commit open. */
  beforeWrite?: (positions: number[]) => Promise<void>;
}

/**
 * Feed positions of one node on MongoDB without a shared counter: a hybrid logical clock stamps each commit, and a
 * reader lists only positions below the watermark, the lowest floor any live node has published. Readers miss no
 * commit however slow, however skewed the clocks, because a commit stamped below a published floor had finished
 * before it was published; the argument and the bounds are in docs/mongodb.md §Feed ordering on MongoDB.
 */
export class FeedFloors {
  readonly clock: PositionClock;
  readonly nodeId = randomUUID();
  private readonly heartbeatMs: number;
  private readonly leaseMs: number;
  private readonly monotonic: () => number;
  private readonly wallMs: () => number;
  /** Lowest position of each commit in flight (assigned, not yet settled). */
  private readonly inFlight = new Map<symbol, number>();
  private published = 0;
  /** Highest position this node has committed. */
  private committed = 0;
  /** Commits may be sent until then (monotonic ms); -Infinity until joined and after a lapse. */
  private validUntil = -Infinity;
  private joining: Promise<void> | null = null;
  /** Set by `stop`: no floor is written after it. */
  private stopped = false;
  private publishing: Promise<void> | null = null;
  /** What this node saw of each node's renewals, and since when (monotonic ms). */
  private readonly seen = new Map<string, { renewals: number; since: number }>();
  private timer: NodeJS.Timeout | null = null;
  /** The registry as last read, and the causal times of that read and of this node's last floor write. */
  private records: FloorRecord[] = [];
  private times: CausalTimes = {};
  private readonly beforeWrite?: (positions: number[]) => Promise<void>;

  constructor(
    private readonly db: Db,
    options: FeedFloorsOptions = {},
  ) {
    this.wallMs = options.clock ?? Date.now;
    this.clock = new PositionClock(this.wallMs);
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.beforeWrite = options.beforeWrite;
  }

  private get floors() {
    return this.db.collection<FloorRecord>(FLOORS_COLLECTION);
  }

  /** Joins and starts the heartbeat. */
  async start(): Promise<void> {
    await this.ready();
    this.timer = setInterval(() => void this.heartbeat().catch(() => undefined), this.heartbeatMs);
    this.timer.unref();
  }

  /**
   * Stops the heartbeat and withdraws the floor: a node that closes cleanly holds back no feed. A renewal under way is
   * waited for first, or its upsert could bring the entry back after the delete, holding the feeds back for a lease.
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    this.validUntil = -Infinity;
    await Promise.allSettled([this.publishing, this.joining]);
    await this.floors.deleteOne({ _id: this.nodeId }).catch(() => undefined);
  }

  /**
   * Runs `write` with `count` fresh positions, counted in flight until it settles. The write is sent only while
   * the node's lease holds; the positions are checked again just before, for a lapse while waiting.
   */
  async stamp<T>(count: number, write: (positions: number[]) => Promise<T>): Promise<T> {
    await this.ready();
    const key = Symbol('commit');
    const positions = this.clock.next(count);
    this.inFlight.set(key, positions[0]);
    try {
      await this.beforeWrite?.(positions);
      if (this.monotonic() >= this.validUntil) throw new StoreUnavailable('the feed lease lapsed before the commit was sent');
      return await write(positions);
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** Records that a commit of this node stored `position` (it may exceed the stamp: see commit-changes.ts). */
  committedAt(position: number): void {
    this.committed = Math.max(this.committed, position);
    this.clock.observe(position);
  }

  /**
   * The watermark for a feed read in `session`: every commit stamped below it has finished and is visible to the
   * session's next read. Publishes this node's floor first when a commit of its own is not yet below it, so a client
   * reads its own writes in the feed of the node it wrote through as soon as the other nodes' floors allow (within one of
   * their heartbeats: docs/mongodb.md §Feed ordering on MongoDB).
   */
  async watermark(session: ClientSession): Promise<number> {
    // A publication already under way may have computed its floor before the commit ended: then one more.
    if (this.committed >= this.published) {
      for (let round = 0; round < 2 && this.committed >= this.published; round++) await this.publish();
      await this.readRegistry();
    }
    // Else the other nodes' floors as the heartbeat last read them, and this node's as it last wrote it: floors only
    // rise, so they bound what is finished, and a node that joined since stamps above every floor it held. The
    // session starts causally after that read and that write, so it sees every commit below those floors.
    applyTimes(session, this.times);
    return this.lowestLiveFloor(this.records);
  }

  private lowestLiveFloor(records: FloorRecord[]): number {
    const now = this.monotonic();
    // Its own floor as it last wrote it, not as last read: a heartbeat that has written its floor and not yet read the
    // registry back leaves an older copy in `records`, which would hold back the node's own last commit.
    let lowest = this.published;
    for (const record of records) {
      if (record._id === this.nodeId) continue;
      const seen = this.seen.get(record._id);
      if (!seen || seen.renewals !== record.renewals) {
        this.seen.set(record._id, { renewals: record.renewals, since: now });
      } else if (now - seen.since >= this.leaseMs) {
        continue; // dead: its unfinished commits can no longer be sent (see stamp)
      }
      lowest = Math.min(lowest, record.floor);
    }
    return lowest;
  }

  /**
   * Renews this node's floor and reads the others', to keep the judgement of who is alive current, and exports how far
   * the feeds lag (`registry_feed_delay_seconds`: a commit held in flight, or a node not yet judged dead, holds it back).
   */
  private async heartbeat(): Promise<void> {
    await this.publish(HEARTBEAT_COMMENT);
    const records = await this.readRegistry(HEARTBEAT_COMMENT);
    // A clock behind another node's would hold every feed back by the skew: it follows the highest floor of the others
    // instead (docs/mongodb.md §Feed ordering on MongoDB, Clock skew). Not its own: a floor is the clock's least next
    // position, and observing it moves the clock one on, so an idle node's floor would creep through its tick.
    for (const record of records) if (record._id !== this.nodeId) this.clock.observe(record.floor);
    feedDelay.set(Math.max(0, this.wallMs() / 1000 - this.lowestLiveFloor(records)));
    await this.forgetLongDead(records);
  }

  /** Every node's floor, read in a causal session whose times later feed reads start from. */
  private async readRegistry(comment?: string): Promise<FloorRecord[]> {
    const records = await this.causally((session) => this.floors.find({}, { session, comment }).toArray());
    this.records = records;
    return records;
  }

  private async causally<T>(operation: (session: ClientSession) => Promise<T>): Promise<T> {
    const session = this.db.client.startSession({ causalConsistency: true });
    applyTimes(session, this.times);
    try {
      return await operation(session);
    } finally {
      this.times = laterTimes(this.times, session);
      await session.endSession();
    }
  }

  /** Entries of nodes dead for ten leases go, each only if it has not been renewed since. */
  private async forgetLongDead(records: FloorRecord[]): Promise<void> {
    const now = this.monotonic();
    for (const record of records) {
      const seen = this.seen.get(record._id);
      if (record._id !== this.nodeId && seen && seen.renewals === record.renewals && now - seen.since >= 10 * this.leaseMs) {
        await this.floors.deleteOne({ _id: record._id, renewals: record.renewals });
        this.seen.delete(record._id);
      }
    }
  }

  /** Sends commits once joined; joins again after a lapse. */
  private ready(): Promise<void> {
    if (this.monotonic() < this.validUntil) return Promise.resolve();
    this.joining ??= this.join().finally(() => {
      this.joining = null;
    });
    return this.joining;
  }

  /**
   * Publishes a floor, then moves the clock above every floor published: a reader that computed a watermark without
   * this node did so from floors it now reads, so this node's commits land above that watermark.
   */
  private async join(): Promise<void> {
    const sentAt = this.monotonic();
    await this.writeFloor();
    for (const record of await this.readRegistry()) this.clock.observe(record.floor);
    await this.writeFloor(this.clock.floor());
    this.validUntil = sentAt + this.leaseMs / 2;
  }

  private publish(comment?: string): Promise<void> {
    this.publishing ??= (async () => {
      const sentAt = this.monotonic();
      await this.writeFloor(undefined, comment);
      // A renewal acknowledged after the lease ran out does not extend it: readers may have taken the node as dead.
      if (this.monotonic() < this.validUntil) this.validUntil = sentAt + this.leaseMs / 2;
    })().finally(() => {
      this.publishing = null;
    });
    return this.publishing;
  }

  private async writeFloor(floor?: number, comment?: string): Promise<void> {
    if (this.stopped) return;
    const lowestInFlight = Math.min(...this.inFlight.values());
    const value = floor ?? Math.min(lowestInFlight, this.clock.floor());
    await this.causally((session) =>
      this.floors.updateOne({ _id: this.nodeId }, { $set: { floor: value }, $inc: { renewals: 1 } }, { session, upsert: true, comment }),
    );
    this.published = Math.max(this.published, value);
  }
}
