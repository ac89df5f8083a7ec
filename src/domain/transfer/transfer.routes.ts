import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import type { RequestState } from '../../http/context';
import { absoluteUrl, created } from '../../http/render';
import { changeOwnership, OWNERSHIP } from './ownership';
import { createTransfer, readTransfer } from './transfer-lifecycle';

/** `/transfers` and every kind's `/ownership` (docs/relocation.md). */
export function transferRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const base = deps.config.publicBaseUrl;

  router.post('/transfers', async (ctx) => {
    const { doc, access } = await createTransfer(ctx);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/transfers/${doc.data.id}`), { data: doc.data, access });
  });

  router.get('/transfers/:id', async (ctx) => {
    ctx.body = { data: await readTransfer(ctx, ctx.params.id) };
  });

  for (const policy of Object.values(OWNERSHIP)) {
    router.post(`/${policy.kind}/:id/ownership`, async (ctx) => {
      ctx.body = { data: await changeOwnership(ctx, policy, deps.accounts) };
    });
  }
  return router;
}
