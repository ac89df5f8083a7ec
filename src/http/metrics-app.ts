import Koa from 'koa';
import type { RequestState } from './context';
import { errorRenderer } from './errors';
import { noSniff } from './no-sniff';
import { routerOf } from './route';
import { metricsRoutes } from './system-routes';

/**
 * What the metrics listener (`METRICS_PORT`) serves: `/metrics` and nothing else. Its counters say, for one, when bids
 * are posted registry-wide, so they never share a listener with the public API (docs/operations.md §Metrics).
 */
export function metricsApp(): Koa<RequestState> {
  const app = new Koa<RequestState>();
  app.silent = true;
  const router = routerOf(metricsRoutes());
  app.use(noSniff());
  app.use(errorRenderer());
  app.use(router.routes());
  return app;
}
