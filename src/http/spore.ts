import Router from '@koa/router';
import type { RequestState } from './context';

/**
 * `GET|HEAD /api/2.5/spore`: a SPORE description of every route, as the reference serves (its Python client
 * opens each session with `HEAD /api/2.5/spore` to obtain a SESSION cookie).
 */
export function sporeRoutes(routers: Router<RequestState>[]): Router<RequestState> {
  const router = new Router<RequestState>();
  router.get('/api/2.5/spore', (ctx) => {
    const methods: Record<string, { path: string; method: string; formats: string[] }> = {};
    for (const layer of routers.flatMap((r) => r.stack)) {
      const path = String(layer.path);
      if (!path.startsWith('/api/2.5/')) continue;
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        const name = `${method.toLowerCase()}_${path.slice('/api/2.5/'.length).replace(/[/:]+/g, '_').replace(/_+$/, '')}`;
        methods[name] = { path, method, formats: ['json'] };
      }
    }
    ctx.body = { name: 'registry', version: '2.5', base_url: ctx.origin, expected_status: [200], methods };
  });
  return router;
}
