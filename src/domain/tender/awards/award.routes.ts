import Router from '@koa/router';
import type { AppDeps } from '../../../app-deps';
import type { Ctx, RequestState } from '../../../http/context';
import type { Doc } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { itemsOf } from '../../core/items';
import { requireBroker, requireOwner } from '../../core/owner';
import { answerDocument, listDocuments, subResourceDocumentWrites, type HeldDocuments } from '../../documents/document-routes';
import { visibleData } from '../restricted-view';
import { tenderDocumentPatch, visibleTender } from '../tender.routes';
import { TENDER_MASK } from '../tender.mask';
import { findAward, patchAward, requireAwardingOpen } from './award-lifecycle';
import { loadTender, tenderChange, tenderOf } from '../tender-aggregate';

const documentsOf = (award: Doc): Doc[] => itemsOf(award, 'documents');

/**
 * An award's documents, for a change by the tender's owner while the tender is in qualification and the award's lot
 * active (`validate_award_document_tender_not_in_allowed_status_base`, `validate_award_document_lot_not_in_allowed_status`).
 */
async function heldAwardDocuments(ctx: Ctx): Promise<HeldDocuments> {
  const stored = await loadTender(ctx.state.session, ctx.params.id);
  const tender = tenderOf(stored.doc);
  const award = findAward(tender, ctx.params.awardId);
  return {
    documents: documentsOf(award),
    listPath: `/api/2.5/tenders/${tender.id}/awards/${award.id}/documents`,
    writable(verb) {
      requireBroker(ctx);
      requireOwner(ctx, stored.doc);
      requireAwardingOpen(tender, award, ['active.qualification'], `${verb} document`);
    },
    async save(documents) {
      const awards = itemsOf(tender, 'awards').map((a) => (a.id === award.id ? { ...a, documents } : a));
      const data = { ...tender, awards, dateModified: formatKyiv(ctx.state.now) };
      await ctx.state.session.commit([tenderChange(stored, data, { writes: ['awards'] })]);
    },
  };
}

/** `/tenders/{id}/awards[/{award_id}[/documents[/{document_id}]]]` (docs/tenders.md §Awards). */
export function awardRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id/awards' });

  router.get('/', async (ctx) => {
    ctx.body = { data: itemsOf(await visibleTender(ctx), 'awards') };
  });

  router.get('/:awardId', async (ctx) => {
    ctx.body = { data: findAward(await visibleTender(ctx), ctx.params.awardId) };
  });

  router.patch('/:awardId', async (ctx) => {
    ctx.body = { data: await patchAward(ctx, ctx.params.id, ctx.params.awardId) };
  });

  // Versions and metadata in the same statuses, `update` in the texts (docs/tenders.md §Awards).
  // Uploads, versions and metadata in the same statuses, `update` in the texts (docs/tenders.md §Awards).
  subResourceDocumentWrites(router, deps, '/:awardId/documents', tenderDocumentPatch, heldAwardDocuments);

  router.get('/:awardId/documents', async (ctx) => {
    listDocuments(ctx, documentsOf(findAward(await visibleTender(ctx), ctx.params.awardId)));
  });

  router.get('/:awardId/documents/:documentId', async (ctx) => {
    const { doc } = await loadTender(ctx.state.session, ctx.params.id);
    const visible = findAward(visibleData(doc, ctx.state.viewer, TENDER_MASK), ctx.params.awardId);
    await answerDocument(ctx, documentsOf(visible), documentsOf(findAward(doc.data, ctx.params.awardId)));
  });

  return router;
}
