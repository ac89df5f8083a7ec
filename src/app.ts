import Koa from 'koa';
import { RenderedViews, renderedViews } from './http/rendered-views';
import { authenticate } from './http/auth';
import { clientAddress } from './http/client-address';
import { jsonBody } from './http/body';
import { LiveFeeds, liveFeedStreams } from './http/live-feeds';
import type { RequestState } from './http/context';
import { errorRenderer, methodNotAllowed } from './http/errors';
import { noSniff } from './http/no-sniff';
import { rateLimit } from './http/rate-limit';
import { prettyJson } from './http/render';
import { requestTimeout } from './http/request-timeout';
import { requestClock } from './http/request-clock';
import { requestLog } from './http/request-log';
import { sessionCookie } from './http/session';
import { routerOf } from './http/route';
import { routeTable } from './route-table';
import type { AppDeps } from './app-deps';

export type { AppDeps } from './app-deps';

export function createApp(deps: AppDeps): Koa<RequestState> {
  const app = new Koa<RequestState>();
  // Forwarded headers count only from the proxies TRUST_PROXY names (docs/operations.md §Behind a proxy).
  app.proxy = deps.config.trustProxy !== null;
  app.silent = true;
  if (deps.config.trustProxy !== null) app.use(clientAddress(deps.config.trustProxy));
  app.use(noSniff());
  app.use(requestLog(deps.logger));
  app.use(prettyJson());
  app.use(errorRenderer());
  app.use(requestTimeout(deps.config.requestTimeoutMs));
  app.use(authenticate(deps.accounts));
  app.use(sessionCookie(deps.store, deps.membership, deps.config.sessionSecret));
  app.use(requestClock(deps.clock));
  app.use(renderedViews(new RenderedViews(deps.config.viewCacheBytes)));
  app.use(liveFeedStreams(deps.liveFeeds ?? new LiveFeeds(deps.store, deps.config.feedStreams, deps.logger)));
  if (deps.config.rateLimitPerMinute > 0) app.use(rateLimit(deps.config.rateLimitPerMinute, deps.rateLimitRedis ?? null));
  app.use(jsonBody(deps.config.bodyLimit));
  // One router holding every route of the one table, which also drives the OpenAPI document (docs/architecture.md §Routes).
  const routes = routerOf(routeTable(deps).table);
  app.use(routes.routes());
  app.use(routes.allowedMethods({ throw: true, notImplemented: methodNotAllowed }));
  return app;
}
