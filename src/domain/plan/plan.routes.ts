import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import type { RequestState } from '../../http/context';
import { apiError } from '../../http/errors';
import { feedRoute, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { loadObject, type ObjectDoc } from '../core/objects';
import { objectReads } from '../core/object-reads';
import type { DocumentHost } from '../core/document-host';
import type { OcdsKind } from '../core/ocds-reads';
import { planRelease } from '../../ocds/plan-release';
import { createPlan, patchPlan } from './plan-lifecycle';
import { addMilestone, findMilestone, patchMilestone } from './plan-milestones';
import { createTenderFromPlan } from './plan-tenders';

/** Plans in OCDS: each its own contracting process in `planning` (docs/ocds.md §Plans). */
const planOcds: OcdsKind = {
  kind: 'plans',
  view: (doc) => doc.data,
  releases: async (views) => views.map(planRelease),
  publisher: (view) => view.procuringEntity?.name,
};

/** Spec-era `listing_allowed_fields` of plans (docs/plans.md §Feed). */
const planFeed: FeedSource = {
  kind: 'plans',
  allowedFields: ['dateCreated', 'dateModified', 'status', 'planID', 'procuringEntity', 'procurementMethodType', 'mode'],
  entry: (doc) => ({ data: (doc as ObjectDoc).data }),
  entryReads: [],
  releases: planOcds.releases,
};

/** Plan documents (docs/plans.md §Documents): the owner adds them until the plan is cancelled or complete. */
export const planDocuments: DocumentHost = {
  kind: 'plans',
  name: 'plan',
  view: (doc) => doc.data,
  authority: async (_session, stored) => stored.doc as ObjectDoc,
  acceptsIn: () => ['draft', 'scheduled'],
  refusal: (status) => apiError(422, `Can't update plan in '${status}' status`, { name: 'status' }),
};

/** `/plans`: creation, owner PATCH, reads, the feed, milestones, and tenders created from a plan (docs/plans.md). */
export function planRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const base = deps.config.publicBaseUrl;

  router.post('/plans', async (ctx) => {
    const { doc, access } = await createPlan(ctx);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/plans/${doc.data.id}`), { data: doc.data, access });
  });

  objectReads(router, 'plans', (doc) => ({ data: doc.data }), { ocds: planOcds, publicBaseUrl: base });

  router.patch('/plans/:id', async (ctx) => {
    ctx.body = { data: (await patchPlan(ctx, ctx.params.id)).data };
  });

  // The reference answers its own 405 here (`PlanTendersResource.get`), not the router's, for a plan that exists.
  router.get('/plans/:id/tenders', async (ctx) => {
    await loadObject(ctx.state.session, 'plans', ctx.params.id);
    throw apiError(405, 'Method not allowed', { location: 'url', name: 'method' });
  });

  router.post('/plans/:id/tenders', async (ctx) => {
    const { doc, access } = await createTenderFromPlan(ctx);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${doc.data.id}`), { data: doc.data, config: doc.config, access });
  });

  router.post('/plans/:id/milestones', async (ctx) => {
    const { milestone, token } = await addMilestone(ctx);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/plans/${ctx.params.id}/milestones/${milestone.id}`), {
      data: milestone,
      access: { token },
    });
  });

  router.get('/plans/:id/milestones/:milestoneId', async (ctx) => {
    const { doc } = await loadObject(ctx.state.session, 'plans', ctx.params.id);
    ctx.body = { data: findMilestone(doc.data, ctx.params.milestoneId) };
  });

  router.patch('/plans/:id/milestones/:milestoneId', async (ctx) => {
    ctx.body = { data: await patchMilestone(ctx) };
  });

  feedRoute(router, '/plans', planFeed, base);
  return router;
}
