import type Koa from 'koa';
import { LRUCache } from 'lru-cache';
import type { Kind } from '../store/port';

/** An object's view rendered from one stored version (its commit `seq`). */
export interface RenderedView {
  seq: number;
  body: Buffer;
}

/**
 * The rendered views anonymous readers get of single objects, least recently read dropped first within a
 * byte budget. An anonymous view depends on the stored document alone (every other reader's view also depends
 * on who reads, and is made per request), and commit sequences are unique, so a view is current exactly while
 * the store still holds its `seq`: a read then checks the seq instead of loading, masking and rendering the
 * document again.
 */
export class AnonymousViews {
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

/** Hands the app's one AnonymousViews to every request. */
export function anonymousViews(views: AnonymousViews): Koa.Middleware {
  return function shareViews(ctx, next) {
    ctx.state.views = views;
    return next();
  };
}
