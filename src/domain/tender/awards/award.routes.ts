import Router from '@koa/router';
import type { AppDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx, RequestState } from '../../../http/context';
import { forbidden } from '../../../http/errors';
import { route, type MountableRoute } from '../../../http/route';
import type { Doc } from '../../../store/port';
import { itemsOf } from '../../core/items';
import { answerDocument, listDocuments, subResourceDocumentWrites, type HeldDocuments } from '../../documents/document-routes';
import { visibleData } from '../restricted-view';
import { TENDER_PROCEDURES } from '../procedures';
import { loadTenderOf, tenderDocumentPatch, tenderListReads, tenderPartOwner, visibleTender } from '../tender.routes';
import { TENDER_MASK } from '../tender.mask';
import { tenderOf } from '../tender-aggregate';
import { findAward, patchAward, requireAwardingOpen, saveAwardDocuments, type TenderAward } from './award-lifecycle';

const PATH = '/api/2.5/tenders/:id/awards';
const documentsOf = (award: Doc): Doc[] => itemsOf(award, 'documents');

/** The award the path names, with its stored tender: 404 for an unknown one. */
async function loadAward(ctx: Ctx): Promise<TenderAward> {
  const stored = await loadTenderOf(ctx);
  return { stored, award: findAward(tenderOf(stored.doc), ctx.params.awardId) };
}

/** `/tenders/{id}/awards[/{award_id}]` (docs/tenders.md §Awards): made by the server, decided by the tender's owner. */
export function awardRoutes(): MountableRoute[] {
  return [
    ...tenderListReads('awards', 'awardId', 'award_id', { list: 'Awards of a tender', one: 'One award of a tender' }),
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
  ];
}

/**
 * An award's documents, for a change by the tender's owner while the tender is in qualification and the award's lot
 * active (`validate_award_document_tender_not_in_allowed_status_base`, `validate_award_document_lot_not_in_allowed_status`).
 */
async function heldAwardDocuments(ctx: Ctx): Promise<HeldDocuments> {
  const held = await loadAward(ctx);
  const { stored, award } = held;
  return {
    documents: documentsOf(award),
    listPath: `/api/2.5/tenders/${stored.doc.data.id}/awards/${award.id}/documents`,
    writable(verb) {
      if (!tenderPartOwner.owns(ctx, held)) throw forbidden();
      requireAwardingOpen(tenderOf(stored.doc), award, ['active.qualification'], `${verb} document`);
    },
    save: (documents) => saveAwardDocuments(ctx.state.session, held, documents, ctx.state.now),
  };
}

/** `/tenders/{id}/awards/{award_id}/documents[/{document_id}]`, served by the document module. */
export function awardDocumentRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: PATH });

  // Uploads, versions and metadata in the same statuses, `update` in the texts (docs/tenders.md §Awards).
  subResourceDocumentWrites(router, deps, '/:awardId/documents', tenderDocumentPatch, heldAwardDocuments);

  router.get('/:awardId/documents', async (ctx) => {
    listDocuments(ctx, documentsOf(findAward(await visibleTender(ctx), ctx.params.awardId)));
  });

  router.get('/:awardId/documents/:documentId', async (ctx) => {
    const { doc } = await loadTenderOf(ctx);
    const visible = findAward(visibleData(doc, ctx.state.viewer, TENDER_MASK), ctx.params.awardId);
    await answerDocument(ctx, documentsOf(visible), documentsOf(findAward(doc.data, ctx.params.awardId)));
  });

  return router;
}
