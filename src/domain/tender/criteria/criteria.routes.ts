import type { Ctx } from '../../../http/context';
import { apiError } from '../../../http/errors';
import { route, type MountableRoute } from '../../../http/route';
import { loadTenderOf, tenderOwner } from '../tender.routes';
import { addCriteria } from './criteria.lifecycle';
import { criteriaListSchema } from './criteria.schema';

/** The `data` of `POST /tenders/{id}/criteria`: a list, where every other write takes an object. */
function criteriaList(ctx: Ctx): unknown[] {
  const body = ctx.state.body as { data?: unknown } | undefined;
  const list = body && typeof body === 'object' && Array.isArray(body.data) ? body.data : null;
  if (!list) throw apiError(422, 'Data not available');
  return list;
}

/** `POST /tenders/{id}/criteria` (docs/tenders.md §Criteria). */
export function criteriaRoutes(): MountableRoute[] {
  return [
    route({
      method: 'post',
      path: '/api/2.5/tenders/:id/criteria',
      summary: 'Adds criteria to a draft tender',
      load: loadTenderOf,
      access: tenderOwner,
      body: [{ data: criteriaListSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const added = await addCriteria(ctx.state.session, stored, () => criteriaList(ctx), ctx.state.now);
        ctx.status = 201;
        ctx.body = { data: added };
      },
    }),
  ];
}
