import Router from '@koa/router';
import type { AppDeps } from '../../app';
import type { RequestState } from '../../http/context';
import { feedRoute } from '../../http/feed';
import { loadObject } from '../core/objects';
import { derivativeFeed, singleView } from '../framework/restricted-access';
import { agreementDerivative } from './agreement.access';

/** Endpoint 19 and the agreement feed; `config` is sent as the reference does (notes/frameworks.md §9.4). */
export function agreementRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const { publicBaseUrl, restrictedMode } = deps.config;

  router.get('/agreements/:id', async (ctx) => {
    const { doc } = await loadObject(ctx.state.session, 'agreements', ctx.params.id);
    ctx.body = { data: singleView(agreementDerivative, doc, ctx.state.viewer, restrictedMode), config: doc.config };
  });

  feedRoute(router, '/agreements', derivativeFeed(agreementDerivative, restrictedMode), publicBaseUrl);
  return router;
}
