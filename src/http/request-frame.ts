import type Koa from 'koa';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Membership } from '../membership/membership';
import type { Store } from '../store/port';
import type { Clock } from '../time/clock';
import { viewerOf, type Account } from './auth';
import { readJsonBody } from './body';
import { takeClientAddress, trustTest } from './client-address';
import type { RequestState } from './context';
import { withErrorsRendered } from './errors';
import type { LiveFeeds } from './live-feeds';
import { setNoSniff } from './no-sniff';
import { rateLimit } from './rate-limit';
import { renderJsonBody } from './render';
import type { RenderedViews } from './rendered-views';
import { beginRequest, endRequest, requestLogParent } from './request-log';
import { withinTime } from './request-timeout';
import { inStoreSession } from './session';

/** What the request frame needs: the app's configuration and the services every request shares. */
export interface FrameDeps {
  config: Pick<Config, 'trustProxy' | 'requestTimeoutMs' | 'sessionSecret' | 'rateLimitPerMinute' | 'bodyLimit'>;
  logger: Logger;
  accounts: Map<string, Account>;
  store: Store;
  membership: Membership;
  clock: Clock;
  views: RenderedViews;
  liveFeeds: LiveFeeds;
  rateLimitRedis: Redis | null;
}

/**
 * Everything the API does for a request before and after its route, in one middleware of plain calls
 * (docs/performance.md §The request frame): the client's address as trusted proxies report it, `nosniff`, the
 * request id, log line and metrics, the rendering of errors and of JSON bodies, the request timeout, the viewer,
 * the request's time and shared services, the store session and its SESSION cookie (412), the rate limit, and the
 * JSON body. The order is the one of the separate middlewares it replaces, pinned by
 * test/http/platform/read-answers.test.ts: a 412, a 429, a timeout and a 415 all carry the cookie, the request id
 * and `nosniff`, and each request logs one line.
 */
export function requestFrame(deps: FrameDeps): Koa.Middleware<RequestState> {
  const { config, store, membership, accounts, clock, views, liveFeeds } = deps;
  const trusted = config.trustProxy === null ? null : trustTest(config.trustProxy);
  const requestLogs = requestLogParent(deps.logger);
  const limitRate = config.rateLimitPerMinute > 0 ? rateLimit(config.rateLimitPerMinute, deps.rateLimitRedis) : null;
  return async function frameRequest(ctx, next) {
    if (trusted) takeClientAddress(ctx, trusted);
    setNoSniff(ctx);
    const started = beginRequest(ctx, requestLogs);
    try {
      ctx.state.viewer = viewerOf(accounts, ctx.get('authorization'));
      ctx.state.now = clock.now();
      ctx.state.views = views;
      ctx.state.liveFeeds = liveFeeds;
      await withErrorsRendered(ctx, () =>
        withinTime(config.requestTimeoutMs, () =>
          inStoreSession(ctx, store, membership, config.sessionSecret, async () => {
            if (limitRate) await limitRate(ctx);
            await readJsonBody(ctx, config.bodyLimit);
            await next();
          }),
        ),
      );
      renderJsonBody(ctx);
    } finally {
      endRequest(ctx, started);
    }
  };
}
