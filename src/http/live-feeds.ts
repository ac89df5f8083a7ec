import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { FeedStreamConfig } from '../config';
import { feedStreamEvents, feedStreamLag, feedStreamsEnded, feedStreamsOpen } from '../metrics';
import type { CausalToken, FeedQuery, Kind, Store, Stored } from '../store/port';
import { apiError } from './errors';
import { EventStream } from './event-stream';
import { ReadSize } from './feed-read-size';

/** An entry's JSON for one stream's reader; `cache` is shared by the streams sent one stored entry, keyed by `key`. */
export interface StreamRender {
  /** Streams whose renderings of `stored` are equal give the same key. */
  key(stored: Stored): string;
  json(stored: Stored): Buffer;
}

/** What a stream follows and for whom (docs/platform.md §Live feed). */
export interface StreamRequest {
  kind: Kind;
  mode: FeedQuery['mode'];
  frameworkID?: string;
  /** The position after which it lists; undefined = from the feed's start. */
  after: number | undefined;
  /** Who holds it, for the caps: `key:<name>` or `ip:<address>`, and that holder's cap (0 = none). */
  holder: string;
  cap: number;
  render: StreamRender;
}

/** Entries a reader takes from the store at once; a catching-up stream's page, at most. */
const BATCH = 1000;
const PAGE = 100;
/** How long a stopping node waits for its streams' clients to take what was written before it cuts them. */
const SHUTDOWN_GRACE_MS = 2000;

class Follower {
  /** Every entry up to this position was sent, or was not this stream's. */
  after: number | undefined;
  /** Sent the reader's entries as they come; before that, reading up to the reader on its own. */
  live = false;

  constructor(
    readonly request: StreamRequest,
    readonly out: EventStream,
  ) {
    this.after = request.after;
  }

  /** Sends an entry; the bytes of its JSON, 0 when it is not this stream's. */
  send(stored: Stored, cache: Map<string, Buffer>): number {
    this.after = stored.seq;
    const { frameworkID, render } = this.request;
    if (frameworkID !== undefined && stored.doc.data?.frameworkID !== frameworkID) return 0;
    const key = render.key(stored);
    let json = cache.get(key);
    if (!json) cache.set(key, (json = render.json(stored)));
    this.out.event(String(stored.seq), json);
    feedStreamEvents.inc({ collection: this.request.kind });
    return json.length;
  }
}

/**
 * One reader of one feed (a kind in one mode) for every stream of this node that follows it: it reads the store's
 * feed — when the node's own commits wake it, else every `pollMs` — and sends each entry to every live stream after
 * that stream's own place. Every place is a position the stream was sent (or its start), never one it was not, so
 * each stream is a crawler of the paged feed (docs/platform.md §Feeds: at least once, in commit order, nothing
 * listed early): a read lists what the feed lists after the earliest place, and each stream takes what is after its
 * own. A stream that starts behind reads the feed's past itself first, at its client's pace.
 */
class FeedReader {
  cursor: number | undefined;
  token: CausalToken | undefined;
  readonly followers = new Set<Follower>();
  readonly ready: Promise<void>;
  /** The largest entry the last stream that caught up on this feed was sent: where the next one's pages start. */
  private largestEntry = 0;
  private woken = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly store: Store,
    private readonly kind: Kind,
    private readonly mode: FeedQuery['mode'],
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {
    this.ready = this.start();
  }

  private read(query: Omit<FeedQuery, 'kind' | 'mode' | 'descending'> & { descending?: boolean }, token: CausalToken | undefined) {
    const session = this.store.session(token);
    const page = session.feed({ kind: this.kind, mode: this.mode, descending: false, ...query });
    return page.then((entries) => ({ entries, token: session.token() }));
  }

  /** From the feed's newest listed entry on: nothing listed after it is listed yet. */
  private async start() {
    for (;;) {
      try {
        const { entries, token } = await this.read({ descending: true, limit: 1 }, undefined);
        this.cursor = entries[0]?.seq ?? 0;
        this.token = token;
        void this.run();
        return;
      } catch (err) {
        this.log.warn({ err, kind: this.kind }, 'live feed: reading the feed failed; retrying');
        if (!(await this.pause())) return;
      }
    }
  }

  private async run() {
    while (this.followers.size) {
      let full = false;
      try {
        full = await this.readOnce();
      } catch (err) {
        this.log.warn({ err, kind: this.kind }, 'live feed: reading the feed failed; retrying');
      }
      if (!full && !(await this.pause())) return;
    }
  }

  /** Waits for a wake or the poll interval; false once the reader has nobody to read for. */
  private pause(): Promise<boolean> {
    if (this.woken || !this.followers.size) {
      this.woken = false;
      return Promise.resolve(this.followers.size > 0);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), this.pollMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        this.woken = false;
        resolve(this.followers.size > 0);
      };
    });
  }

  /** Makes the reader read now (a commit of this node), or stop waiting (its last stream left). */
  poke(): void {
    this.woken = true;
    this.wake?.();
  }

  /**
   * One read for the live streams, from the earliest place one of them is at: a stream that has just joined may be
   * behind the cursor (what it read on its own stopped at a lower watermark), and is sent the entries it lacks.
   */
  private async readOnce(): Promise<boolean> {
    const live = [...this.followers].filter((follower) => follower.live && follower.out.keepsUp());
    const from = live.reduce<number | undefined>((earliest, follower) => before(earliest, follower.after), this.cursor);
    const { entries, token } = await this.read({ offset: from, limit: BATCH }, this.token);
    this.token = token;
    if (!entries.length) return false;
    this.cursor = entries[entries.length - 1].seq;
    const nowSeconds = Date.now() / 1000;
    for (const stored of entries) {
      feedStreamLag.observe(Math.max(0, nowSeconds - stored.seq));
      const cache = new Map<string, Buffer>();
      for (const follower of live) {
        // A stream more than its buffer behind is cut before it is written more (docs/platform.md §Live feed: Limits).
        if ((follower.after === undefined || stored.seq > follower.after) && follower.out.keepsUp()) follower.send(stored, cache);
      }
    }
    return entries.length === BATCH;
  }

  /**
   * Sends a new stream the feed from where it starts, an entry at a time as its client takes them, until a page comes
   * back short (the watermark reached); then the reader sends it the rest (see the class comment). Pages hold about
   * the stream's buffer of entries (`ReadSize`), so a stream catching up holds that page and its buffer.
   */
  async catchUp(follower: Follower): Promise<void> {
    await this.ready;
    const { frameworkID } = follower.request;
    const size = new ReadSize(follower.out.bufferBytes, PAGE, this.largestEntry);
    while (follower.out.open) {
      if (follower.after !== undefined && this.cursor !== undefined && follower.after >= this.cursor) break;
      const limit = size.entries;
      const { entries } = await this.read({ offset: follower.after, limit, frameworkID }, this.token);
      const sizes: number[] = [];
      for (const stored of entries) {
        await follower.out.room();
        if (!follower.out.open) break;
        sizes.push(follower.send(stored, new Map()));
      }
      size.saw(sizes);
      this.largestEntry = size.largestEntry;
      if (entries.length < limit) break;
    }
    follower.live = true;
    // A commit noticed while the stream caught up was read for the streams already live; this one is behind it.
    if (this.cursor !== undefined && (follower.after === undefined || follower.after < this.cursor)) this.poke();
  }
}

/** The earlier of two exclusive starts; undefined, the feed's start, is the earliest. */
const before = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : Math.min(a, b));

/**
 * The node's live feeds (docs/platform.md §Live feed): one reader per followed feed, the open streams, their caps,
 * keep-alives and shutdown.
 */
export class LiveFeeds {
  private readonly readers = new Map<string, FeedReader>();
  private readonly held = new Map<string, number>();
  private readonly streams = new Set<EventStream>();
  private keepAlive: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly store: Store,
    readonly config: FeedStreamConfig,
    private readonly log: Logger,
  ) {}

  /** Opens a stream, or refuses it: 429 over its holder's cap, 503 on a stopping node. */
  open(request: StreamRequest, res: ServerResponse): EventStream {
    if (this.closed) throw apiError(503, 'The node is stopping; reconnect', { location: 'url', name: 'live_feed' });
    // A client gone before its stream opened would never be told of as closed.
    if (res.destroyed) throw apiError(400, 'The client closed the connection', { location: 'url', name: 'live_feed' });
    const { holder, cap, kind } = request;
    const count = this.held.get(holder) ?? 0;
    if (cap > 0 && count >= cap) {
      const error = apiError(429, `Too many open live feed streams (at most ${cap})`, { location: 'header', name: 'Authorization' });
      error.headers['Retry-After'] = '1';
      throw error;
    }
    this.held.set(holder, count + 1);
    const readerKey = `${kind}:${request.mode}`;
    let reader = this.readers.get(readerKey);
    if (!reader) {
      reader = new FeedReader(this.store, kind, request.mode, this.config.pollMs, this.log);
      this.readers.set(readerKey, reader);
    }
    const feedReader = reader;
    const out = new EventStream(res, this.config.bufferBytes, (reason) => {
      const left = (this.held.get(holder) ?? 1) - 1;
      if (left > 0) this.held.set(holder, left);
      else this.held.delete(holder);
      this.streams.delete(out);
      feedReader.followers.delete(follower);
      if (!feedReader.followers.size) {
        this.readers.delete(readerKey);
        feedReader.poke();
      }
      feedStreamsOpen.dec({ collection: kind });
      if (reason !== 'closed') feedStreamsEnded.inc({ reason });
      if (!this.streams.size) this.stopKeepAlive();
    });
    const follower = new Follower(request, out);
    this.streams.add(out);
    feedStreamsOpen.inc({ collection: kind });
    feedReader.followers.add(follower);
    this.startKeepAlive();
    feedReader.catchUp(follower).catch((err) => {
      this.log.warn({ err, kind }, 'live feed: a stream could not read up to the feed; ended');
      out.cut('error');
    });
    return out;
  }

  /** The node committed changes to these kinds: their readers read now. */
  committed(kinds: Iterable<Kind>): void {
    for (const kind of new Set(kinds)) {
      for (const [key, reader] of this.readers) if (key.startsWith(`${kind}:`)) reader.poke();
    }
  }

  private startKeepAlive() {
    if (this.keepAlive) return;
    this.keepAlive = setInterval(() => {
      for (const out of this.streams) out.keepAlive();
    }, this.config.keepAliveMs);
    this.keepAlive.unref();
  }

  private stopKeepAlive() {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
  }

  /** Refuses new streams and ends the open ones; resolves when their clients have them, or were cut off. */
  async close(): Promise<void> {
    this.closed = true;
    const ends = [...this.streams].map((out) => out.end('shutdown'));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
    });
    await Promise.race([Promise.all(ends), grace]);
    clearTimeout(timer);
    for (const out of this.streams) out.cut('shutdown');
    this.stopKeepAlive();
  }
}
