import type { Store } from '../store/port';
import { metrics } from '../metrics';
import { route, type MountableRoute } from './route';

/** Health and readiness, on every listener that serves HTTP (docs/operations.md). */
export function systemRoutes(store: Pick<Store, 'ping'>, readinessChecks: (() => Promise<void>)[] = []): MountableRoute[] {
  return [
    route({
      method: 'get',
      path: '/healthz',
      summary: 'The process is up',
      access: 'public',
      result: 'status',
      handle: (ctx) => {
        ctx.body = { status: 'ok' };
      },
    }),
    route({
      method: 'get',
      path: '/readyz',
      summary: 'The store (and Redis for workers) answer',
      access: 'public',
      result: 'status',
      handle: async (ctx) => {
        const problems: string[] = [];
        for (const check of [() => store.ping(), ...readinessChecks]) {
          await check().catch((err: Error) => problems.push(err.message));
        }
        ctx.status = problems.length ? 503 : 200;
        ctx.body = problems.length ? { status: 'unavailable', problems } : { status: 'ok' };
      },
    }),
  ];
}

/** Prometheus metrics, served only on the metrics listener, never next to the API (docs/operations.md §Metrics). */
export function metricsRoutes(): MountableRoute[] {
  return [
    route({
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics',
      access: 'public',
      result: 'metrics',
      handle: async (ctx) => {
        ctx.type = metrics.contentType;
        ctx.body = await metrics.metrics();
      },
    }),
  ];
}
