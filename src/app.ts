import Koa from 'koa';
import { RenderedViews } from './http/rendered-views';
import { LiveFeeds } from './http/live-feeds';
import type { RequestState } from './http/context';
import { methodNotAllowed } from './http/errors';
import { requestFrame } from './http/request-frame';
import { routerOf } from './http/route';
import { routeTable } from './route-table';
import type { AppDeps } from './app-deps';

export type { AppDeps } from './app-deps';

export function createApp(deps: AppDeps): Koa<RequestState> {
  const app = new Koa<RequestState>();
  // Forwarded headers count only from the proxies TRUST_PROXY names (docs/operations.md §Behind a proxy).
  app.proxy = deps.config.trustProxy !== null;
  app.silent = true;
  app.use(
    requestFrame({
      ...deps,
      views: new RenderedViews(deps.config.viewCacheBytes),
      liveFeeds: deps.liveFeeds ?? new LiveFeeds(deps.store, deps.config.feedStreams, deps.logger),
      rateLimitRedis: deps.rateLimitRedis ?? null,
    }),
  );
  // One router holding every route of the one table, which also drives the OpenAPI document (docs/architecture.md §Routes).
  const routes = routerOf(routeTable(deps).table);
  app.use(routes.routes());
  app.use(routes.allowedMethods({ throw: true, notImplemented: methodNotAllowed }));
  return app;
}
