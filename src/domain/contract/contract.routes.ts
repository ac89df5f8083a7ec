import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import type { Ctx, RequestState } from '../../http/context';
import { feedRoute, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { loadObject, type ObjectDoc } from '../core/objects';
import { objectReads } from '../core/object-reads';
import type { OcdsKind } from '../core/ocds-reads';
import { contractRelease } from '../../ocds/contract-release';
import { visibleData } from '../tender/restricted-view';
import type { DocumentHost } from '../core/document-host';
import { createContract, patchContract } from './contract-lifecycle';
import { addChange, findChange, patchChange } from './contract-changes';
import { CONTRACT_MASK } from './contract.mask';
import { putSignerInfo } from './contract-signer-info';
import { generateCredentials } from './contract-credentials';
import { tenderContractLink } from '../tender/contracts/contract-signing';

/** Contracts in OCDS: each in its tender's contracting process (docs/ocds.md §Contracts). */
const contractOcds: OcdsKind = {
  kind: 'contracts',
  view: (doc, viewer) => visibleData(doc, viewer, CONTRACT_MASK),
  releases: async (views) => views.map(contractRelease),
  publisher: (view) => view.buyer?.name,
};

const contractFeed: FeedSource = {
  kind: 'contracts',
  // Spec-era `listing_allowed_fields` of contracts (docs/contracts.md §Contract feed).
  allowedFields: ['dateCreated', 'contractID', 'dateModified', 'status'],
  entry: (doc, viewer) => ({ data: visibleData(doc as ObjectDoc, viewer, CONTRACT_MASK) }),
  releases: contractOcds.releases,
};

/** Contract documents: the owner adds them until the contract is final; readers see them as the contract. */
export const contractDocuments: DocumentHost = {
  kind: 'contracts',
  name: 'contract',
  view: (doc, viewer) => visibleData(doc, viewer, CONTRACT_MASK),
  authority: async (_session, stored) => stored.doc as ObjectDoc,
  acceptsIn: () => ['pending', 'active'],
  documentOf: ['tender', 'item', 'lot', 'contract', 'change'],
};

/** Endpoint 20 (`GET /contracts/{id}`), the contract feed, creation by the contracting system, owner PATCH, changes. */
export function contractRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const base = deps.config.publicBaseUrl;

  router.post('/contracts', async (ctx) => {
    const { doc, access } = await createContract(ctx);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/contracts/${doc.data.id}`), { data: doc.data, config: doc.config, access });
  });

  objectReads(router, 'contracts', (doc, viewer) => ({ data: visibleData(doc, viewer, CONTRACT_MASK), config: doc.config }), {
    ocds: contractOcds,
    publicBaseUrl: base,
  });

  router.patch('/contracts/:id', async (ctx) => {
    const doc = await patchContract(ctx, ctx.params.id, tenderContractLink);
    ctx.body = { data: doc.data, config: doc.config };
  });

  router.patch('/contracts/:id/credentials', async (ctx) => {
    const { doc, access } = await generateCredentials(ctx);
    ctx.body = { data: doc.data, config: doc.config, access };
  });

  const visibleContract = async (ctx: Ctx) =>
    visibleData((await loadObject(ctx.state.session, 'contracts', ctx.params.id)).doc, ctx.state.viewer, CONTRACT_MASK);

  router.put('/contracts/:id/buyer/signer_info', async (ctx) => {
    ctx.body = { data: await putSignerInfo(ctx, 'buyer') };
  });

  router.put('/contracts/:id/suppliers/signer_info', async (ctx) => {
    ctx.body = { data: await putSignerInfo(ctx, 'suppliers') };
  });

  router.post('/contracts/:id/changes', async (ctx) => {
    const change = await addChange(ctx);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/contracts/${ctx.params.id}/changes/${change.id}`), { data: change });
  });

  router.get('/contracts/:id/changes', async (ctx) => {
    ctx.body = { data: (await visibleContract(ctx)).changes ?? [] };
  });

  router.get('/contracts/:id/changes/:changeId', async (ctx) => {
    ctx.body = { data: findChange(await visibleContract(ctx), ctx.params.changeId) };
  });

  router.patch('/contracts/:id/changes/:changeId', async (ctx) => {
    ctx.body = { data: await patchChange(ctx) };
  });

  feedRoute(router, '/contracts', contractFeed, base);
  return router;
}
