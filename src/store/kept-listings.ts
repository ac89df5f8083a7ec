import type { Kind, Listing, ListingQuery, StoredDoc } from './port';

const DEFAULT_MAX_BYTES = 16 * 2 ** 20;
/** Bytes counted for an entry beyond its JSON: its map slots and the object holding it. */
const ENTRY_OVERHEAD = 64;
/** How much the estimate of the hit rate moves with each page (an exponential moving average). */
const HIT_RATE_WEIGHT = 0.2;
/** Below this estimated hit rate a page is read whole in one round trip, not as positions first. */
const MIN_HIT_RATE = 0.5;

/**
 * The fields a listing's entries are kept under: the listed ones and the read ones apart, since an entry that is not
 * restricted holds the listed fields only.
 */
export const listingFields = (query: Pick<ListingQuery, 'listed' | 'reads'>): string =>
  `${query.listed.join(',')}|${query.reads.join(',')}`;

/**
 * A kept entry: a ready one as is; one to mask as its doc, frozen to the last member and shared by every reader (masking
 * copies what it hides: src/masking/mask.ts), with the bytes of its JSON.
 */
type Kept = { json: Buffer } | { doc: StoredDoc; bytes: number };

/** One generation of kept entries: by feed (collection and fields), then by position. */
type Generation = Map<string, Map<number, Kept>>;

/** What a node knows of one feed and set of fields besides its kept entries. */
interface FeedState {
  /** The estimated share of a page's entries that are kept. */
  hitRate: number;
  /** Entries a read under way will bring. */
  coming: Map<number, Promise<Listing | undefined>>;
}

/**
 * Feed entries this node has listed, by collection, fields read and position
 * (docs/mongodb.md §Feed pages on MongoDB; docs/performance.md §Feed entries kept on SQLite). A listed position names
 * one version of one object for good — every write stores a new one, unique in its collection, and none lands below
 * a listed one later — so an entry kept never goes stale and nothing has to vouch for it. A position not yet listed
 * has no such promise: a node whose clock is behind may still stamp it once its object has moved on.
 *
 * Memory is two generations of at most half the bytes each: entries are kept in the young one, an entry read from
 * the old one moves to the young one, and when the young one is full the old one is dropped whole and the young one
 * becomes old. What was not read for a generation goes, as least recently used entries would, at a map lookup by
 * position for each entry (docs/performance.md §Feed entries kept on SQLite).
 */
export class KeptListings {
  private young: Generation = new Map();
  private old: Generation = new Map();
  private youngBytes = 0;
  private readonly generationBytes: number;
  private readonly feeds = new Map<string, FeedState>();

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.generationBytes = maxBytes / 2;
  }

  /** One feed's kept entries: a page looks its entries up through one of these. */
  feed(kind: Kind, fields: string): KeptFeed {
    const key = `${kind}/${fields}`;
    let state = this.feeds.get(key);
    if (!state) this.feeds.set(key, (state = { hitRate: 1, coming: new Map() }));
    return new KeptFeed(this, key, state);
  }

  /** @internal The entry at `seq` of `feed`, moved to the young generation when found in the old one. */
  find(feed: string, seq: number): Kept | undefined {
    const young = this.young.get(feed)?.get(seq);
    if (young) return young;
    const old = this.old.get(feed)?.get(seq);
    if (old) this.put(feed, seq, old);
    return old;
  }

  /** @internal Keeps an entry in the young generation, which becomes the old one once full. */
  put(feed: string, seq: number, kept: Kept): void {
    const bytes = ('json' in kept ? kept.json.length : kept.bytes) + ENTRY_OVERHEAD;
    if (bytes > this.generationBytes) return;
    let entries = this.young.get(feed);
    if (!entries) this.young.set(feed, (entries = new Map()));
    if (entries.has(seq)) return;
    entries.set(seq, kept);
    this.youngBytes += bytes;
    if (this.youngBytes > this.generationBytes) {
      this.old = this.young;
      this.young = new Map();
      this.youngBytes = 0;
    }
  }
}

/** The kept entries of one feed and set of fields. */
export class KeptFeed {
  constructor(
    private readonly kept: KeptListings,
    private readonly key: string,
    private readonly state: FeedState,
  ) {}

  /** Whether a page of this feed should be read as positions first: most of its entries are likely kept. */
  worthAsking(): boolean {
    return this.state.hitRate >= MIN_HIT_RATE;
  }

  has(seq: number): boolean {
    return this.kept.find(this.key, seq) !== undefined;
  }

  /**
   * The entry at `seq`: kept, or coming from a read another page has under way (which gives nothing if that read
   * found the object elsewhere, and fails as that read does), or neither.
   */
  lookup(seq: number): Listing | Promise<Listing | undefined> | undefined {
    const kept = this.kept.find(this.key, seq);
    if (kept) return 'json' in kept ? { seq, json: kept.json } : { seq, doc: kept.doc };
    return this.state.coming.get(seq);
  }

  /** Keeps an entry; an entry to mask is frozen, as the listing that brought it, to the last member. */
  keep(listing: Listing): void {
    const kept =
      'json' in listing ? { json: listing.json } : { doc: frozen(listing.doc), bytes: Buffer.byteLength(JSON.stringify(listing.doc)) };
    this.kept.put(this.key, listing.seq, kept);
  }

  /** Counts a page of `listed` entries of which `kept` were kept, or coming, when it was read. */
  counted(kept: number, listed: number): void {
    if (!listed) return;
    this.state.hitRate += HIT_RATE_WEIGHT * (kept / listed - this.state.hitRate);
  }

  /** A page read whole: counted by the entries already kept, then all of them kept. */
  keptWhole(listings: Listing[]): Listing[] {
    this.counted(listings.filter((listing) => this.has(listing.seq)).length, listings.length);
    for (const listing of listings) this.keep(listing);
    return listings;
  }

  /**
   * The page at `positions`: the entries kept, those a read under way brings, and the rest through `readByIds`, which
   * are then kept. An object found (here or by the read waited for) at another position than listed has changed since
   * it was listed. Its new position lies above the page's watermark — one below it would have been listed instead — so
   * a later page lists it, as it would had this page been read a moment later.
   */
  async page(positions: { _id: string; seq: number }[], readByIds: (ids: string[]) => Promise<Listing[]>): Promise<Listing[]> {
    const listings = new Map<number, Listing>();
    const coming: Promise<void>[] = [];
    const missing: { _id: string; seq: number }[] = [];
    for (const position of positions) {
      const found = this.lookup(position.seq);
      if (found === undefined) missing.push(position);
      else if (found instanceof Promise) coming.push(found.then((listing) => void (listing && listings.set(position.seq, listing))));
      else listings.set(position.seq, found);
    }
    this.counted(positions.length - missing.length, positions.length);
    if (missing.length) {
      const read = readByIds(missing.map((position) => position._id));
      const seqs = missing.map((position) => position.seq);
      coming.push(this.reading(seqs, read).then((found) => found.forEach((listing) => listings.set(listing.seq, listing))));
    }
    await Promise.all(coming);
    return positions.flatMap(({ seq }) => listings.get(seq) ?? []);
  }

  /**
   * Keeps what `read` brings of the entries at `positions`, and until it settles lets pages that ask for them wait for
   * it (`lookup`) rather than read them again: crawlers at the same place of a feed ask for the same entries at once.
   */
  async reading(positions: number[], read: Promise<Listing[]>): Promise<Listing[]> {
    const { coming } = this.state;
    const found = read.then((listings) => new Map(listings.map((listing) => [listing.seq, listing])));
    for (const seq of positions) {
      // Waiting pages share an entry to mask, frozen as from memory.
      const entry = found.then((bySeq) => {
        const listing = bySeq.get(seq);
        return listing && ('json' in listing ? listing : { seq, doc: frozen(listing.doc) });
      });
      entry.catch(() => undefined); // a failed read fails each page that waits for it, and no other
      coming.set(seq, entry);
    }
    try {
      const listings = await read;
      // Only the entries still at the positions asked: one found elsewhere has moved above the watermark, unlisted.
      const asked = new Set(positions);
      for (const listing of listings) if (asked.has(listing.seq)) this.keep(listing);
      return listings;
    } finally {
      for (const seq of positions) coming.delete(seq);
    }
  }
}

/** `value` frozen with every object and array in it: a reader that tries to change a shared entry fails loudly. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) frozen(member);
  }
  return value;
}
