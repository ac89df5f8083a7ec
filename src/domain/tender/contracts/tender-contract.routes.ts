import Router from '@koa/router';
import type { RequestState } from '../../../http/context';
import { apiError, forbidden } from '../../../http/errors';
import { inGroup, isBroker } from '../../../http/auth';
import { itemById, itemsOf } from '../../core/items';
import { loadObject } from '../../core/objects';
import { visibleTender } from '../tender.routes';

/**
 * `GET /tenders/{id}/contracts[/{contract_id}]` (docs/tenders.md §Contracts of a tender): the tender's copies of
 * its contracts, hidden as the tender is; they change at `/contracts/{id}`. The older calls that changed them in
 * the tender answer the refusal the reference gives every tender made after `NEW_CONTRACTING_FROM`
 * (docs/relocation.md §Older contracting calls).
 */
export function tenderContractRoutes(): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id' });

  router.get('/contracts', async (ctx) => {
    ctx.body = { data: itemsOf(await visibleTender(ctx), 'contracts') };
  });

  router.get('/contracts/:contractId', async (ctx) => {
    ctx.body = { data: itemById(await visibleTender(ctx), 'contracts', ctx.params.contractId, 'contract_id') };
  });

  router.patch('/contracts/:contractId', async (ctx) => {
    itemById(await visibleTender(ctx), 'contracts', ctx.params.contractId, 'contract_id');
    if (!isBroker(ctx.state.viewer)) throw forbidden();
    throw apiError(403, 'update is forbidden for contract');
  });

  router.post('/contracts/:contractId/documents', async (ctx) => {
    itemById(await visibleTender(ctx), 'contracts', ctx.params.contractId, 'contract_id');
    if (!isBroker(ctx.state.viewer) && !inGroup(ctx.state.viewer, 'bots')) throw forbidden();
    throw apiError(403, 'add is forbidden for contract document');
  });

  // The contracting system's read of the tender's owner and token hash (`TenderCredentialsSerializer`).
  router.get('/extract_credentials', async (ctx) => {
    const { doc } = await loadObject(ctx.state.session, 'tenders', ctx.params.id);
    if (!inGroup(ctx.state.viewer, 'contracting') && !inGroup(ctx.state.viewer, 'competitive_dialogue')) throw forbidden();
    ctx.body = { data: { id: doc.data.id, owner: doc.data.owner, tender_token: doc.secrets?.tokenHash } };
  });

  return router;
}
