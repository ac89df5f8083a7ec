import type { Timestamp } from 'mongodb';
import type { Kind, Stored } from '../port';
import type { ChangeWatch, Confirmation } from './change-watch';

/** An object as a store read or a commit of this node left it, and what vouches for it. */
interface KeptDoc {
  rev: number;
  seq: number;
  /** The document as UTF-8 JSON (half the memory of a string of Cyrillic text): every `get` parses its own copy. */
  json: Buffer;
  confirmed: Confirmation;
}

/** A found object and the time its version was confirmed at. */
export interface Found {
  stored: Stored;
  confirmed?: Confirmation;
}

const DEFAULT_MAX_BYTES = 32 * 2 ** 20;

/**
 * The documents this node last read or wrote, least recently used first out, each answered again without a round
 * trip while the change watch vouches for its version (docs/mongodb.md §Kept views on MongoDB). A PATCH reads
 * its object before writing it; with this, the read of an object the node itself wrote last is free.
 */
export class KeptDocs {
  private readonly docs = new Map<string, KeptDoc>();
  private bytes = 0;

  constructor(
    private readonly watch: ChangeWatch,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  /** The object as kept, if it is current for a session that has seen `seen`. */
  get(kind: Kind, id: string, seen: Timestamp | undefined): Found | undefined {
    const key = `${kind}/${id}`;
    const kept = this.docs.get(key);
    if (!kept) return undefined;
    if (!this.watch.isCurrent(kind, id, { rev: kept.rev }, kept.confirmed, seen)) {
      this.drop(key, kept);
      return undefined;
    }
    this.docs.delete(key); // to the most recently used end
    this.docs.set(key, kept);
    return {
      stored: { kind, id, rev: kept.rev, seq: kept.seq, doc: JSON.parse(kept.json.toString()) as Stored['doc'] },
      confirmed: kept.confirmed,
    };
  }

  /** Keeps `stored` (copied now) if its version is confirmed. */
  keep(stored: Stored, confirmed: Confirmation | undefined): void {
    const key = `${stored.kind}/${stored.id}`;
    const old = this.docs.get(key);
    if (old) this.drop(key, old);
    if (!confirmed) return;
    const kept = { rev: stored.rev, seq: stored.seq, json: Buffer.from(JSON.stringify(stored.doc)), confirmed };
    this.docs.set(key, kept);
    this.bytes += sizeOf(kept);
    for (const [oldest, doc] of this.docs) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest, doc);
    }
  }

  private drop(key: string, kept: KeptDoc): void {
    this.docs.delete(key);
    this.bytes -= sizeOf(kept);
  }
}

const sizeOf = (kept: KeptDoc) => kept.json.length + 64;
