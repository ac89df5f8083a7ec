import type { RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import { loadTenderOf, tenderListReads, tenderOwner, tenderPartOwner } from '../tender.routes';
import { lotPatchSchema, lotSchema } from '../tender.schema';
import { addLot, deleteLot, findLot, patchLot, type TenderLot } from './lot.lifecycle';

/** The lot the path names, with its stored tender: 404 for an unknown one, before the owner is judged. */
async function loadLot(ctx: Ctx): Promise<TenderLot> {
  const stored = await loadTenderOf(ctx);
  return { stored, lot: findLot(stored.doc.data, ctx.params.lotId) };
}

/** `/tenders/{id}/lots[/{lot_id}]` (docs/tenders.md §Lots). */
export function lotRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return [
    route({
      method: 'post',
      path: '/api/2.5/tenders/:id/lots',
      summary: 'Adds a lot to a tender',
      load: loadTenderOf,
      access: tenderOwner,
      body: [{ data: lotSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const lot = await addLot(ctx.state.session, stored, () => bodyData(ctx), ctx.state.now);
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${ctx.params.id}/lots/${lot.id}`), { data: lot });
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/tenders/:id/lots/:lotId',
      summary: 'Changes a lot of a tender',
      load: loadLot,
      access: tenderPartOwner,
      body: [{ data: lotPatchSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await patchLot(ctx.state.session, loaded, () => bodyData(ctx), ctx.state.now) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/2.5/tenders/:id/lots/:lotId',
      summary: 'Deletes a lot nothing names',
      load: loadLot,
      access: tenderPartOwner,
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await deleteLot(ctx.state.session, loaded, ctx.state.now) };
      },
    }),
    ...tenderListReads('lots', 'lotId', 'lot_id', { list: 'Lots of a tender', one: 'One lot of a tender' }),
  ];
}
