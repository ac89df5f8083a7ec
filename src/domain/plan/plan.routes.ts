import type { RouteDeps } from '../../app-deps';
import { bodyConfig, bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';
import { feedRoute, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import { actorOf } from '../core/actor';
import { loadObject, type StoredObject } from '../core/objects';
import { objectReadRoutes } from '../core/object-reads';
import type { DocumentHost } from '../core/document-host';
import type { OcdsKind } from '../core/ocds-reads';
import { ownerOf, presentedToken } from '../core/owner';
import { planRelease } from '../../ocds/plan-release';
import { TENDER_PROCEDURES } from '../tender';
import { createPlan, patchPlan } from './plan.lifecycle';
import { addMilestone, findMilestone, holdsMilestone, patchMilestone, type LoadedMilestone } from './plan-milestones';
import { patchMilestoneSchema, patchPlanSchema, planSchema, postMilestoneSchema } from './plan.schema';
import { createTenderFromPlan } from './plan-tenders';
import type { Plan, PlanDoc } from './plan.types';

/** Plans in OCDS: each its own contracting process in `planning` (docs/ocds.md §Plans). */
const planOcds: OcdsKind = {
  kind: 'plans',
  view: (doc) => (doc as PlanDoc).data,
  releasesOf: async () => async (view) => [planRelease(view)],
  publisher: (view) => (view as Plan).procuringEntity?.name,
};

/** Spec-era `listing_allowed_fields` of plans (docs/plans.md §Feed). */
const planFeed: FeedSource = {
  kind: 'plans',
  allowedFields: ['dateCreated', 'dateModified', 'status', 'planID', 'procuringEntity', 'procurementMethodType', 'mode'],
  entry: (doc) => ({ data: (doc as PlanDoc).data }),
  entryReads: [],
  releasesOf: planOcds.releasesOf,
};

/** Plan documents (docs/plans.md §Documents): the owner adds them until the plan is cancelled or complete. */
export const planDocuments: DocumentHost = {
  kind: 'plans',
  name: 'plan',
  view: (doc: PlanDoc) => doc.data,
  authority: async (_session, stored) => stored.doc as PlanDoc,
  acceptsIn: () => ['draft', 'scheduled'],
  refusal: (status) => apiError(422, `Can't update plan in '${status}' status`, { name: 'status' }),
  fields: { language: 'uk' },
};

const loadPlan = (ctx: Ctx): Promise<StoredObject<PlanDoc>> => loadObject<PlanDoc>(ctx.state.session, 'plans', ctx.params.id);

async function loadMilestone(ctx: Ctx): Promise<LoadedMilestone> {
  const stored = await loadPlan(ctx);
  return { stored, milestone: findMilestone(stored.doc.data, ctx.params.milestoneId) };
}

/** `/plans`: creation, owner PATCH, reads, the feed, milestones, and tenders created from a plan (docs/plans.md). */
export function planRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return [
    route({
      method: 'post',
      path: '/api/2.5/plans',
      summary: 'Creates a plan (scheduled unless draft is asked)',
      access: 'broker',
      body: [{ data: planSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx) => {
        const { doc, access } = await createPlan(ctx.state.session, bodyData(ctx), actorOf(ctx));
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/plans/${doc.data.id}`), { data: doc.data, access });
      },
    }),
    ...objectReadRoutes('plans', (doc) => ({ data: (doc as PlanDoc).data }), {
      ocds: planOcds,
      publicBaseUrl: base,
      recordLimit: deps.config.ocdsRecordLimit,
    }),
    route({
      method: 'patch',
      path: '/api/2.5/plans/:id',
      summary: 'Changes, schedules, cancels or completes a plan',
      load: loadPlan,
      access: ownerOf('the plan', (stored: StoredObject<PlanDoc>) => stored.doc),
      body: [{ data: patchPlanSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        ctx.body = { data: (await patchPlan(ctx.state.session, stored, bodyData(ctx), ctx.state.now)).data };
      },
    }),
    // The reference answers its own 405 here (`PlanTendersResource.get`), not the router's, for a plan that exists.
    route({
      method: 'get',
      path: '/api/2.5/plans/:id/tenders',
      summary: 'Refused: 405 Method not allowed, as the reference',
      load: loadPlan,
      access: 'public',
      result: 'refused',
      handle: () => {
        throw apiError(405, 'Method not allowed', { location: 'url', name: 'method' });
      },
    }),
    route({
      method: 'post',
      path: '/api/2.5/plans/:id/tenders',
      summary: 'Creates a tender (draft) from a scheduled plan, which becomes complete',
      load: loadPlan,
      access: 'broker',
      body: Object.values(TENDER_PROCEDURES).map((p) => ({ data: p.schemas.create, config: p.config })),
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const request = { data: bodyData(ctx), config: () => bodyConfig(ctx) };
        const { doc, access } = await createTenderFromPlan(ctx.state.session, stored, request, actorOf(ctx));
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${doc.data.id}`), { data: doc.data, config: doc.config, access });
      },
    }),
    route({
      method: 'post',
      path: '/api/2.5/plans/:id/milestones',
      summary: "Adds an approval milestone by the plan's procuring entity (its own owner token)",
      load: loadPlan,
      access: 'broker',
      body: [{ data: postMilestoneSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const { milestone, token } = await addMilestone(ctx.state.session, stored, bodyData(ctx), actorOf(ctx));
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/plans/${stored.id}/milestones/${milestone.id}`), {
          data: milestone,
          access: { token },
        });
      },
    }),
    route({
      method: 'get',
      path: '/api/2.5/plans/:id/milestones/:milestoneId',
      summary: 'One milestone of a plan',
      load: loadMilestone,
      access: 'public',
      result: 'object',
      handle: (ctx, { milestone }) => {
        ctx.body = { data: milestone };
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/plans/:id/milestones/:milestoneId',
      summary: 'Meets, misses or edits a milestone (its owner token)',
      load: loadMilestone,
      access: { owner: 'the milestone', owns: (ctx, loaded) => holdsMilestone(ctx.state.viewer.account, presentedToken(ctx), loaded) },
      body: [{ data: patchMilestoneSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await patchMilestone(ctx.state.session, loaded, bodyData(ctx), ctx.state.now) };
      },
    }),
    feedRoute(planFeed, base),
  ];
}
