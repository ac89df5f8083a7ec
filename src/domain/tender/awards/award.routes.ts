import type { RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import { absoluteUrl, created } from '../../../http/render';
import type { Ctx } from '../../../http/context';
import { route, type MountableRoute } from '../../../http/route';
import {
  documentsOf,
  type DocumentHolder,
  documentReadRoutes,
  documentWriteRoutes,
  TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
} from '../../documents';
import { visibleData } from '../../core/restricted-view';
import { TENDER_PROCEDURES } from '../procedures';
import { loadTenderOf, tenderDocumentPatch, tenderListReads, tenderOwner, tenderPartOwner } from '../tender.routes';
import { TENDER_MASK } from '../tender.mask';
import { tenderOf } from '../tender-aggregate';
import { addAward, awardDocuments, findAward, patchAward, type TenderAward } from './award.lifecycle';

const PATH = '/api/2.5/tenders/:id/awards';

/** The award the path names, with its stored tender: 404 for an unknown one. */
async function loadAward(ctx: Ctx): Promise<TenderAward> {
  const stored = await loadTenderOf(ctx);
  return { stored, award: findAward(tenderOf(stored.doc), ctx.params.awardId) };
}

/**
 * `/tenders/{id}/awards[/{award_id}[/documents[/{document_id}]]]` (docs/tenders.md §Awards): made by the server
 * from bids, or named by the tender's owner where its procedure says so (docs/tenders.md §reporting); decided by the
 * tender's owner.
 */
export function awardRoutes(deps: RouteDeps): MountableRoute[] {
  return [
    ...tenderListReads('awards', 'awardId', 'award_id', { list: 'Awards of a tender', one: 'One award of a tender' }),
    route({
      method: 'post',
      path: PATH,
      summary: 'Names the supplier of an award (the tender owner, where the procedure has no bids)',
      load: loadTenderOf,
      access: tenderOwner,
      body: Object.values(TENDER_PROCEDURES).flatMap((p) => (p.awards.create ? [{ data: p.awards.create }] : [])),
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const award = await addAward(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
        created(ctx, absoluteUrl(ctx, deps.config.publicBaseUrl, `/api/2.5/tenders/${ctx.params.id}/awards/${award.id}`), { data: award });
      },
    }),
    route({
      method: 'patch',
      path: `${PATH}/:awardId`,
      summary: 'Decides an award (the tender owner)',
      load: loadAward,
      access: tenderPartOwner,
      body: Object.values(TENDER_PROCEDURES).map((p) => ({ data: p.awards.schema })),
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await patchAward(ctx.state.session, loaded, bodyData(ctx), ctx.state.now) };
      },
    }),
    ...documentWriteRoutes<DocumentHolder & TenderAward>(deps, {
      path: `${PATH}/:awardId/documents`,
      load: async (ctx) => awardDocuments(await loadAward(ctx)),
      access: tenderPartOwner,
      schema: tenderDocumentPatch,
      // Only the tender's owner uploads them: `get_award_document_role` records `tender_owner` (docs/platform.md §Document fields).
      fields: { ...TENDER_SUB_RESOURCE_DOCUMENT_FIELDS, author: 'tender_owner' },
    }),
    ...documentReadRoutes(deps, {
      path: `${PATH}/:awardId/documents`,
      load: loadAward,
      visible: (ctx, { stored, award }) => documentsOf(findAward(visibleData(stored.doc, ctx.state.viewer, TENDER_MASK), award.id)),
      stored: ({ award }) => documentsOf(award),
    }),
  ];
}
