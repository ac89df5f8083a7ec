import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import { bodyConfig, bodyData } from '../../http/body';
import type { RequestState } from '../../http/context';
import { absoluteUrl, created } from '../../http/render';
import { loadObject } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import { derivativeReadRoutes } from '../core/restricted-access';
import { submissionDerivative } from './submission.access';
import { createSubmission, patchSubmission } from './submission-lifecycle';

/** Endpoints 12-15. */
export function submissionRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const { publicBaseUrl } = deps.config;

  router.post('/submissions', async (ctx) => {
    requireBroker(ctx);
    const data = bodyData(ctx);
    const config = bodyConfig(ctx);
    const { doc, access } = await createSubmission(ctx.state.session, ctx.state.viewer.account!, { data, config }, ctx.state.now);
    const location = absoluteUrl(ctx, publicBaseUrl, `/api/2.5/submissions/${doc.data.id}`);
    created(ctx, location, { data: doc.data, access, config: doc.config });
  });

  router.patch('/submissions/:id', async (ctx) => {
    const stored = await loadObject(ctx.state.session, 'submissions', ctx.params.id);
    requireBroker(ctx);
    requireOwner(ctx, stored.doc);
    const doc = await patchSubmission(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
    ctx.body = { data: doc.data, config: doc.config };
  });

  derivativeReadRoutes(router, submissionDerivative, deps.config);
  return router;
}
