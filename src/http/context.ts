import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Viewer } from './auth';
import type { StoreSession } from '../store/port';
import type { LiveFeeds } from './live-feeds';
import type { RenderedViews } from './rendered-views';

/** Everything a request carries between middleware; nothing else is put on ctx. */
export interface RequestState {
  requestId: string;
  log: Logger;
  /** Read once per request: every timestamp a request writes is this one (docs/platform.md §Time and dates). */
  now: Date;
  viewer: Viewer;
  session: StoreSession;
  /** Rendered object views, shared by the app's requests. */
  views: RenderedViews;
  /** The node's live feed streams (docs/platform.md §Live feed). */
  liveFeeds: LiveFeeds;
  /** Parsed JSON body, when the request has one. */
  body?: unknown;
}

/** A request's context; `params` are the matched route's path parameters (`:id`), as @koa/router sets them. */
export type Ctx = Koa.ParameterizedContext<RequestState, Koa.DefaultContext & { params: Record<string, string> }>;
