import Koa from 'koa';
import type { RequestState } from '../http/context';
import { errorRenderer } from '../http/errors';
import { noSniff } from '../http/no-sniff';
import { routerOf } from '../http/route';
import { systemRoutes } from '../http/system-routes';
import type { Store } from '../store/port';

/** What a ROLE=worker node serves: /healthz and /readyz (store and Redis), for its probes; metrics have their own listener. */
export function probeApp(store: Store, readinessChecks: (() => Promise<void>)[]): Koa<RequestState> {
  const app = new Koa<RequestState>();
  app.silent = true;
  const router = routerOf(systemRoutes(store, readinessChecks));
  app.use(noSniff());
  app.use(errorRenderer());
  app.use(router.routes());
  return app;
}
