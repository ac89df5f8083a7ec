import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import { bodyData } from '../../http/body';
import type { Ctx, RequestState } from '../../http/context';
import { feedRoute } from '../../http/feed';
import { loadObject } from '../core/objects';
import { objectReads } from '../core/object-reads';
import { requireBroker, requireOwner } from '../core/owner';
import { derivativeFeed, singleView } from '../core/restricted-access';
import { agreementDerivative } from './agreement.access';
import { addMilestone, changeMilestone, contractsOf, findContract, findMilestone } from './agreement-contracts';

/**
 * Endpoint 19, the agreement feed, and its contracts and their milestones; `config` is sent as the reference does
 * (docs/frameworks.md §Agreements).
 */
export function agreementRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const { publicBaseUrl, restrictedMode } = deps.config;

  objectReads(router, 'agreements', (doc, viewer) => ({
    data: singleView(agreementDerivative, doc, viewer, restrictedMode),
    config: doc.config,
  }));

  const visibleAgreement = async (ctx: Ctx) => {
    const { doc } = await loadObject(ctx.state.session, 'agreements', ctx.params.id);
    return singleView(agreementDerivative, doc, ctx.state.viewer, restrictedMode);
  };
  const contract = async (ctx: Ctx) => findContract(await visibleAgreement(ctx), ctx.params.contractId);
  /** Milestone writes are the framework owner's: the agreement carries the framework's token hashes. */
  const ownedAgreement = async (ctx: Ctx) => {
    const stored = await loadObject(ctx.state.session, 'agreements', ctx.params.id);
    requireBroker(ctx);
    requireOwner(ctx, stored.doc);
    return stored;
  };
  const MILESTONES = '/agreements/:id/contracts/:contractId/milestones';

  router.get('/agreements/:id/contracts', async (ctx) => {
    ctx.body = { data: contractsOf(await visibleAgreement(ctx)) };
  });

  router.get('/agreements/:id/contracts/:contractId', async (ctx) => {
    ctx.body = { data: await contract(ctx) };
  });

  router.get(MILESTONES, async (ctx) => {
    ctx.body = { data: (await contract(ctx)).milestones ?? [] };
  });

  router.get(`${MILESTONES}/:milestoneId`, async (ctx) => {
    ctx.body = { data: findMilestone(await contract(ctx), ctx.params.milestoneId) };
  });

  router.post(MILESTONES, async (ctx) => {
    const stored = await ownedAgreement(ctx);
    const { milestone, write } = addMilestone(stored, ctx.params.contractId, bodyData(ctx), ctx.state.now);
    await ctx.state.session.commit([write]);
    // The reference answers a milestone POST without a Location header (docs/frameworks.md §Agreement contracts and milestones).
    ctx.status = 201;
    ctx.body = { data: milestone };
  });

  router.patch(`${MILESTONES}/:milestoneId`, async (ctx) => {
    const stored = await ownedAgreement(ctx);
    const { milestone, write } = changeMilestone(stored, ctx.params.contractId, ctx.params.milestoneId, bodyData(ctx), ctx.state.now);
    await ctx.state.session.commit([write]);
    ctx.body = { data: milestone };
  });

  feedRoute(router, '/agreements', derivativeFeed(agreementDerivative, restrictedMode), publicBaseUrl);
  return router;
}
