import Router from '@koa/router';
import type { Ctx, RequestState } from '../../../http/context';
import { apiError, notFound } from '../../../http/errors';
import type { Doc } from '../../../store/port';
import { itemById } from '../../core/items';
import { requireBroker } from '../../core/owner';
import type { ComplaintHost } from '../procedure';
import { procedureOfStored } from '../tender-lifecycle';
import { loadTender } from '../tender-aggregate';

/**
 * Complaints are off for both procedures: their configs fix `hasTenderComplaints`, `hasAwardComplaints` and
 * `hasCancellationComplaints` to false (docs/tenders.md §Complaints). Where the procedure has the reference's
 * complaint routes, a list is empty, one complaint is 404 and a complaint posted gets the `validate_complaint_config`
 * refusal; elsewhere there is no route (404).
 */
const HOSTS: { host: ComplaintHost; path: string; list?: string; idName?: string }[] = [
  { host: 'tender', path: '/complaints' },
  { host: 'award', path: '/awards/:hostId/complaints', list: 'awards', idName: 'award_id' },
  { host: 'cancellation', path: '/cancellations/:hostId/complaints', list: 'cancellations', idName: 'cancellation_id' },
];

export function complaintRoutes(): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id' });
  for (const { host, path, list, idName } of HOSTS) {
    /** The tender, when its procedure has this route for `use`, and the award or cancellation named (404 otherwise). */
    const routed = async (ctx: Ctx, use: 'read' | 'post'): Promise<Doc> => {
      const { doc } = await loadTender(ctx.state.session, ctx.params.id);
      if (!procedureOfStored(doc.data).complaintRoutes[use].includes(host)) throw notFound('not_found');
      if (list) itemById(doc.data, list, ctx.params.hostId, idName!);
      return doc.data;
    };
    router.get(path, async (ctx) => {
      await routed(ctx, 'read');
      ctx.body = { data: [] };
    });
    router.get(`${path}/:complaintId`, async (ctx) => {
      await routed(ctx, 'read');
      throw notFound('complaint_id');
    });
    router.post(path, async (ctx) => {
      await routed(ctx, 'post');
      requireBroker(ctx);
      throw apiError(403, "Can't add complaint as it is forbidden by configuration");
    });
  }
  return router;
}
