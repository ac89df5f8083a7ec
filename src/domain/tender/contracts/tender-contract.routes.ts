import Router from '@koa/router';
import type { RequestState } from '../../../http/context';
import { itemById, itemsOf } from '../../core/items';
import { visibleTender } from '../tender.routes';

/**
 * `GET /tenders/{id}/contracts[/{contract_id}]` (docs/tenders.md §Contracts of a tender): the tender's copies of
 * its contracts, hidden as the tender is; they change at `/contracts/{id}`.
 */
export function tenderContractRoutes(): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id/contracts' });

  router.get('/', async (ctx) => {
    ctx.body = { data: itemsOf(await visibleTender(ctx), 'contracts') };
  });

  router.get('/:contractId', async (ctx) => {
    ctx.body = { data: itemById(await visibleTender(ctx), 'contracts', ctx.params.contractId, 'contract_id') };
  });

  return router;
}
