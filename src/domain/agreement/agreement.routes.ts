import type { RouteDeps } from '../../app-deps';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { feedRoute } from '../../http/feed';
import { route, type MountableRoute } from '../../http/route';
import { loadObject, type StoredObject } from '../core/objects';
import { objectReadRoutes } from '../core/object-reads';
import { ownerOf } from '../core/owner';
import { derivativeFeed, singleView } from '../core/restricted-access';
import { agreementDerivative } from './agreement.access';
import { addMilestone, changeMilestone, contractsOf, findContract, findMilestone } from './agreement-contracts';
import type { Agreement, AgreementContract, AgreementDoc } from './agreement.types';
import { createMilestoneSchema, patchMilestoneSchema } from './milestone.schema';

const MILESTONES = '/api/2.5/agreements/:id/contracts/:contractId/milestones';

const loadAgreement = (ctx: Ctx): Promise<StoredObject<AgreementDoc>> =>
  loadObject<AgreementDoc>(ctx.state.session, 'agreements', ctx.params.id);

/** Milestone writes are the framework owner's: the agreement carries the framework's token hashes. */
const frameworkOwner = ownerOf("the agreement (its framework owner's token)", (stored: StoredObject<AgreementDoc>) => stored.doc);

/**
 * Endpoint 19, the agreement feed, and its contracts and their milestones; `config` is sent as the reference does
 * (docs/frameworks.md §Agreements).
 */
export function agreementRoutes(deps: RouteDeps): MountableRoute[] {
  const { publicBaseUrl, restrictedMode } = deps.config;
  /** The agreement's data as this reader may see it (403 for a reader with no access). */
  const visibleAgreement = async (ctx: Ctx): Promise<Agreement> =>
    singleView(agreementDerivative, (await loadAgreement(ctx)).doc, ctx.state.viewer, restrictedMode);
  const loadContract = async (ctx: Ctx): Promise<AgreementContract> => findContract(await visibleAgreement(ctx), ctx.params.contractId);
  return [
    ...objectReadRoutes('agreements', (doc: AgreementDoc, viewer) => ({
      data: singleView(agreementDerivative, doc, viewer, restrictedMode),
      config: doc.config,
    })),
    route({
      method: 'get',
      path: '/api/2.5/agreements/:id/contracts',
      summary: 'Contracts of an agreement',
      load: visibleAgreement,
      access: 'public',
      result: 'list',
      handle: (ctx, agreement) => {
        ctx.body = { data: contractsOf(agreement) };
      },
    }),
    route({
      method: 'get',
      path: '/api/2.5/agreements/:id/contracts/:contractId',
      summary: 'One contract of an agreement',
      load: loadContract,
      access: 'public',
      result: 'object',
      handle: (ctx, contract) => {
        ctx.body = { data: contract };
      },
    }),
    route({
      method: 'get',
      path: MILESTONES,
      summary: "Milestones of an agreement's contract",
      load: loadContract,
      access: 'public',
      result: 'list',
      handle: (ctx, contract) => {
        ctx.body = { data: contract.milestones ?? [] };
      },
    }),
    route({
      method: 'get',
      path: `${MILESTONES}/:milestoneId`,
      summary: "One milestone of an agreement's contract",
      load: loadContract,
      access: 'public',
      result: 'object',
      handle: (ctx, contract) => {
        ctx.body = { data: findMilestone(contract, ctx.params.milestoneId) };
      },
    }),
    // Only the agreement is loaded before access: the contract is looked up by the lifecycle, its 404 for the owner alone.
    route({
      method: 'post',
      path: MILESTONES,
      summary: 'Bans a supplier for 90 days (a ban milestone)',
      load: loadAgreement,
      access: frameworkOwner,
      body: [{ data: createMilestoneSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const milestone = await addMilestone(ctx.state.session, stored, ctx.params.contractId, bodyData(ctx), ctx.state.now);
        // The reference answers a milestone POST without a Location header (docs/frameworks.md §Agreement contracts and milestones).
        ctx.status = 201;
        ctx.body = { data: milestone };
      },
    }),
    route({
      method: 'patch',
      path: `${MILESTONES}/:milestoneId`,
      summary: "Ends a supplier's participation (activation milestone met)",
      load: loadAgreement,
      access: frameworkOwner,
      body: [{ data: patchMilestoneSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        const { contractId, milestoneId } = ctx.params;
        ctx.body = { data: await changeMilestone(ctx.state.session, stored, { contractId, milestoneId }, bodyData(ctx), ctx.state.now) };
      },
    }),
    feedRoute(derivativeFeed(agreementDerivative, restrictedMode), publicBaseUrl),
  ];
}
