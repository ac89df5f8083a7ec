import Router from '@koa/router';
import type { RequestState } from './context';
import { CONSTANTS } from '../domain/constants';
import type { Store } from '../store/port';
import { metrics } from '../metrics';

/** Health, readiness, metrics and the constants endpoint. */
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
  router.get('/api/2.5/constants', (ctx) => {
    ctx.body = CONSTANTS;
  });
  return router;
}
