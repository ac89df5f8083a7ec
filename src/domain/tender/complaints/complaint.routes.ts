import Router from '@koa/router';
import type { RequestState } from '../../../http/context';
import { apiError, notFound } from '../../../http/errors';
import { itemById } from '../../core/items';
import { requireBroker } from '../../core/owner';
import type { ComplaintHost } from '../procedure';
import { loadTender, procedureOfStored } from '../tender-lifecycle';

/**
 * Complaints are off for both procedures: their configs fix `hasTenderComplaints`, `hasAwardComplaints` and
 * `hasCancellationComplaints` to false (docs/tenders.md §Complaints). A complaint posted where the procedure has the
 * reference's complaint route gets its `validate_complaint_config` refusal; elsewhere there is no route (404).
 */
const ROUTES: { host: ComplaintHost; path: string; list?: string; idName?: string }[] = [
  { host: 'tender', path: '/complaints' },
  { host: 'award', path: '/awards/:hostId/complaints', list: 'awards', idName: 'award_id' },
  { host: 'cancellation', path: '/cancellations/:hostId/complaints', list: 'cancellations', idName: 'cancellation_id' },
];

export function complaintRoutes(): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id' });
  for (const { host, path, list, idName } of ROUTES) {
    router.post(path, async (ctx) => {
      const { doc } = await loadTender(ctx, ctx.params.id);
      if (!procedureOfStored(doc.data).complaintRoutes.includes(host)) throw notFound('not_found');
      if (list) itemById(doc.data, list, ctx.params.hostId, idName!);
      requireBroker(ctx);
      throw apiError(403, "Can't add complaint as it is forbidden by configuration");
    });
  }
  return router;
}
