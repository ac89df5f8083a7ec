import type { Ctx } from '../../../http/context';
import { apiError, notFound } from '../../../http/errors';
import { route, type MountableRoute } from '../../../http/route';
import { itemById } from '../../core/items';
import type { ComplaintHost } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { loadTenderOf } from '../tender.routes';

/**
 * Complaints are off for both procedures: their configs fix `hasTenderComplaints`, `hasAwardComplaints` and
 * `hasCancellationComplaints` to false (docs/tenders.md §Complaints). Where the procedure has the reference's
 * complaint routes, a list is empty, one complaint is 404 and a complaint posted gets the `validate_complaint_config`
 * refusal; elsewhere there is no route (404).
 */
const HOSTS: { host: ComplaintHost; of: string; path: string; list?: 'awards' | 'cancellations'; idName?: string }[] = [
  { host: 'tender', of: 'a tender', path: '/complaints' },
  { host: 'award', of: 'an award', path: '/awards/:hostId/complaints', list: 'awards', idName: 'award_id' },
  {
    host: 'cancellation',
    of: 'a cancellation',
    path: '/cancellations/:hostId/complaints',
    list: 'cancellations',
    idName: 'cancellation_id',
  },
];

export function complaintRoutes(): MountableRoute[] {
  return HOSTS.flatMap(({ host, of, path: tail, list, idName }) => {
    const path = `/api/2.5/tenders/:id${tail}`;
    /** The tender, when its procedure has this route for `use`, and the award or cancellation named (404 otherwise). */
    const routed = (use: 'read' | 'post') => async (ctx: Ctx) => {
      const { doc } = await loadTenderOf(ctx);
      if (!procedureOfStored(doc.data).complaintRoutes[use].includes(host)) throw notFound('not_found');
      if (list) itemById(doc.data, list, ctx.params.hostId, idName!);
    };
    return [
      route({
        method: 'post',
        path,
        summary: `Refuses a complaint of ${of}: complaints are off`,
        load: routed('post'),
        access: 'broker',
        body: 'any-data',
        result: 'complaintsOff',
        handle: () => {
          throw apiError(403, "Can't add complaint as it is forbidden by configuration");
        },
      }),
      route({
        method: 'get',
        path,
        summary: `Complaints of ${of}: always empty`,
        load: routed('read'),
        access: 'public',
        result: 'list',
        handle: (ctx) => {
          ctx.body = { data: [] };
        },
      }),
      route({
        method: 'get',
        path: `${path}/:complaintId`,
        summary: `One complaint of ${of}: always 404`,
        load: routed('read'),
        access: 'public',
        result: 'object',
        handle: () => {
          throw notFound('complaint_id');
        },
      }),
    ];
  });
}
