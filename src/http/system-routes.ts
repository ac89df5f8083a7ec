import Router from '@koa/router';
import type { RequestState } from './context';
import type { Store } from '../store/port';
import { metrics } from '../metrics';

/** Health, readiness and metrics. */
export function systemRoutes(store: Store, readinessChecks: (() => Promise<void>)[] = []) {
  const router = new Router<RequestState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const problems: string[] = [];
    for (const check of [() => store.ping(), ...readinessChecks]) {
      await check().catch((err: Error) => problems.push(err.message));
    }
    ctx.status = problems.length ? 503 : 200;
    ctx.body = problems.length ? { status: 'unavailable', problems } : { status: 'ok' };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.contentType;
    ctx.body = await metrics.metrics();
  });
  return router;
}
