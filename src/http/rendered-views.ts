import { LRUCache } from 'lru-cache';
import type { KeptVersion, Kind } from '../store/port';
import type { Account } from './auth';

/** An object's view rendered from one stored version (its commit `seq`). */
export interface RenderedView extends KeptVersion {
  body: Buffer;
  /** The object is not restricted: every reader, with a key or without, gets this view. */
  forEveryone: boolean;
}

/**
 * Rendered views of single objects that depend on the stored version and the reader alone (which views those
 * are is decided in src/domain/core/object-reads.ts), least recently read dropped first within a byte budget.
 * Commit sequences are unique, so a view is current exactly while the store still holds its `seq`. A view for
 * everyone, or for readers without an account, is kept once per object; a restricted object's view for an
 * account is kept per account, as what an account sees follows from its name, group and levels.
 */
export class RenderedViews {
  private readonly views: LRUCache<string, RenderedView> | null;

  constructor(maxBytes: number) {
    this.views = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (view, key) => view.body.length + key.length }) : null;
  }

  get(kind: Kind, id: string, account: Account | null): RenderedView | undefined {
    if (!this.views) return undefined;
    const shared = this.views.get(keyOf(kind, id, null));
    if (shared && (shared.forEveryone || !account)) return shared;
    return account ? this.views.get(keyOf(kind, id, account)) : undefined;
  }

  remember(kind: Kind, id: string, account: Account | null, view: RenderedView): void {
    this.views?.set(keyOf(kind, id, view.forEveryone ? null : account), view);
  }
}

/** Where a view is kept: once per object for everyone and for readers without an account, else per account. */
const keyOf = (kind: Kind, id: string, account: Account | null) =>
  account ? `${kind}/${id} ${account.group} ${account.name} ${account.levels}` : `${kind}/${id}`;
