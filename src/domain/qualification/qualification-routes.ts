import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import { bodyData } from '../../http/body';
import type { RequestState } from '../../http/context';
import { loadObject } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import { derivativeReadRoutes } from '../core/restricted-access';
import { qualificationDerivative } from './qualification.access';
import { decideQualification } from './qualification-lifecycle';

/** Endpoints 16-18. */
export function qualificationRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });

  router.patch('/qualifications/:id', async (ctx) => {
    const { session } = ctx.state;
    const stored = await loadObject(session, 'qualifications', ctx.params.id);
    requireBroker(ctx);
    // The framework owner's token decides qualifications (docs/frameworks.md §Qualifications).
    requireOwner(ctx, (await loadObject(session, 'frameworks', stored.doc.data.frameworkID)).doc);
    const doc = await decideQualification(session, stored, bodyData(ctx), ctx.state.now);
    ctx.body = { data: doc.data, config: doc.config };
  });

  derivativeReadRoutes(router, qualificationDerivative, deps.config);
  return router;
}
