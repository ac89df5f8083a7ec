import { LRUCache } from 'lru-cache';
import type { Kind, Listing, ListingQuery } from './port';

const DEFAULT_MAX_BYTES = 16 * 2 ** 20;
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

/** A kept entry: a ready one as is, one to mask as its JSON (every reader parses its own copy). */
type Kept = { json: Buffer } | { docJson: Buffer };

/**
 * Feed entries this node has listed, by collection, position and the fields read
 * (docs/mongodb.md §Feed pages on MongoDB; docs/performance.md §Feed entries kept on SQLite). A listed position names
 * one version of one object for good — every write stores a new one, unique in its collection, and none lands below
 * a listed one later — so an entry kept never goes stale and nothing has to vouch for it. A position not yet listed
 * has no such promise: a node whose clock is behind may still stamp it once its object has moved on.
 */
export class KeptListings {
  private readonly entries: LRUCache<string, Kept>;
  /** Per feed and fields: the estimated share of a page's entries that are kept. */
  private readonly hitRates = new Map<string, number>();
  /** Entries a read under way will bring. */
  private readonly coming = new Map<string, Promise<Listing | undefined>>();

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.entries = new LRUCache<string, Kept>({
      maxSize: Math.max(maxBytes, 1), // every entry is larger than a byte: 0 keeps none
      sizeCalculation: (kept) => ('json' in kept ? kept.json.length : kept.docJson.length) + 64,
    });
  }

  /** Whether a page of this feed and fields should be read as positions first: most of its entries are likely kept. */
  worthAsking(kind: Kind, fields: string): boolean {
    return (this.hitRates.get(feedOf(kind, fields)) ?? 1) >= MIN_HIT_RATE;
  }

  has(kind: Kind, fields: string, seq: number): boolean {
    return this.entries.has(keyOf(kind, fields, seq));
  }

  /** A page read whole: counted by the entries already kept, then all of them kept. */
  keptWhole(kind: Kind, fields: string, listings: Listing[]): Listing[] {
    this.counted(kind, fields, listings.filter((listing) => this.has(kind, fields, listing.seq)).length, listings.length);
    for (const listing of listings) this.keep(kind, fields, listing);
    return listings;
  }

  /**
   * The page at `positions`: the entries kept, those a read under way brings, and the rest through `readByIds`, which
   * are then kept. An object found (here or by the read waited for) at another position than listed has changed since
   * it was listed. Its new position lies above the page's watermark — one below it would have been listed instead — so
   * a later page lists it, as it would had this page been read a moment later.
   */
  async page(
    kind: Kind,
    fields: string,
    positions: { _id: string; seq: number }[],
    readByIds: (ids: string[]) => Promise<Listing[]>,
  ): Promise<Listing[]> {
    const listings = new Map<number, Listing>();
    const coming: Promise<void>[] = [];
    const missing: { _id: string; seq: number }[] = [];
    for (const position of positions) {
      const found = this.lookup(kind, fields, position.seq);
      if (found === undefined) missing.push(position);
      else if (found instanceof Promise) coming.push(found.then((listing) => void (listing && listings.set(position.seq, listing))));
      else listings.set(position.seq, found);
    }
    this.counted(kind, fields, positions.length - missing.length, positions.length);
    if (missing.length) {
      const read = readByIds(missing.map((position) => position._id));
      const seqs = missing.map((position) => position.seq);
      coming.push(this.reading(kind, fields, seqs, read).then((found) => found.forEach((listing) => listings.set(listing.seq, listing))));
    }
    await Promise.all(coming);
    return positions.flatMap(({ seq }) => listings.get(seq) ?? []);
  }

  /**
   * The entry at `seq`: kept, or coming from a read another page has under way (which gives nothing if that read
   * found the object elsewhere, and fails as that read does), or neither.
   */
  lookup(kind: Kind, fields: string, seq: number): Listing | Promise<Listing | undefined> | undefined {
    const key = keyOf(kind, fields, seq);
    const kept = this.entries.get(key);
    if (kept) return 'json' in kept ? { seq, json: kept.json } : { seq, doc: parsed(kept.docJson) };
    return this.coming.get(key);
  }

  /**
   * Keeps what `read` brings of the entries at `positions`, and until it settles lets pages that ask for them wait for
   * it (`lookup`) rather than read them again: crawlers at the same place of a feed ask for the same entries at once.
   */
  async reading(kind: Kind, fields: string, positions: number[], read: Promise<Listing[]>): Promise<Listing[]> {
    const found = read.then((listings) => new Map(listings.map((listing) => [listing.seq, listing])));
    const keys = positions.map((seq) => keyOf(kind, fields, seq));
    positions.forEach((seq, i) => {
      // Each waiting page gets its own copy of an entry to mask, as from memory.
      const entry = found.then((bySeq) => {
        const listing = bySeq.get(seq);
        return listing && ('json' in listing ? listing : { seq, doc: parsed(JSON.stringify(listing.doc)) });
      });
      entry.catch(() => undefined); // a failed read fails each page that waits for it, and no other
      this.coming.set(keys[i], entry);
    });
    try {
      const listings = await read;
      // Only the entries still at the positions asked: one found elsewhere has moved above the watermark, unlisted.
      const asked = new Set(positions);
      for (const listing of listings) if (asked.has(listing.seq)) this.keep(kind, fields, listing);
      return listings;
    } finally {
      for (const key of keys) this.coming.delete(key);
    }
  }

  keep(kind: Kind, fields: string, listing: Listing): void {
    const kept = 'json' in listing ? { json: listing.json } : { docJson: Buffer.from(JSON.stringify(listing.doc)) };
    this.entries.set(keyOf(kind, fields, listing.seq), kept);
  }

  /** Counts a page of `listed` entries of which `kept` were kept, or coming, when it was read. */
  counted(kind: Kind, fields: string, kept: number, listed: number): void {
    if (!listed) return;
    const feed = feedOf(kind, fields);
    const rate = this.hitRates.get(feed) ?? 1;
    this.hitRates.set(feed, rate + HIT_RATE_WEIGHT * (kept / listed - rate));
  }
}

const parsed = (json: Buffer | string) => JSON.parse(json.toString()) as Record<string, unknown>;
const feedOf = (kind: Kind, fields: string) => `${kind}/${fields}`;
const keyOf = (kind: Kind, fields: string, seq: number) => `${feedOf(kind, fields)}/${seq}`;
