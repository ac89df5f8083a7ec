import type Koa from 'koa';
import { LRUCache } from 'lru-cache';
import type { KeptVersion, Kind } from '../store/port';

/** An object's view rendered from one stored version (its commit `seq`). */
export interface RenderedView extends KeptVersion {
  body: Buffer;
  /** The object is not restricted: every reader, with a key or without, gets this view. */
  forEveryone: boolean;
}

/**
 * Rendered views of single objects that depend on the stored version alone (which views those are is decided
 * in src/domain/core/object-reads.ts), least recently read dropped first within a byte budget. Commit sequences
 * are unique, so a view is current exactly while the store still holds its `seq`.
 */
export class RenderedViews {
  private readonly views: LRUCache<string, RenderedView> | null;

  constructor(maxBytes: number) {
    this.views = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (view, key) => view.body.length + key.length }) : null;
  }

  get(kind: Kind, id: string): RenderedView | undefined {
    return this.views?.get(`${kind}/${id}`);
  }

  remember(kind: Kind, id: string, view: RenderedView): void {
    this.views?.set(`${kind}/${id}`, view);
  }
}

/** Hands the app's one RenderedViews to every request. */
export function renderedViews(views: RenderedViews): Koa.Middleware {
  return function shareViews(ctx, next) {
    ctx.state.views = views;
    return next();
  };
}
