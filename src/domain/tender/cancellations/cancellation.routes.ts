import Router from '@koa/router';
import type { AppDeps } from '../../../app-deps';
import type { Ctx, RequestState } from '../../../http/context';
import { absoluteUrl, created } from '../../../http/render';
import { itemsOf } from '../../core/items';
import { answerDocument, listDocuments, subResourceDocumentWrites } from '../../documents/document-routes';
import { tenderDocumentPatch } from '../tender.routes';
import { visibleData } from '../restricted-view';
import { TENDER_MASK } from '../tender.mask';
import { addCancellation, cancellationsOf, findCancellation, patchCancellation, heldCancellationDocuments } from './cancellation-lifecycle';
import { loadTender } from '../tender-aggregate';

/**
 * `/tenders/{id}/cancellations[/{cancellation_id}[/documents[/{document_id}]]]` (docs/tenders.md §Cancellations).
 * Readers see cancellations as they see the tender: the hiding table names no part of them.
 */
export function cancellationRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id/cancellations' });
  const base = deps.config.publicBaseUrl;
  const path = (ctx: Ctx, ...parts: string[]) =>
    absoluteUrl(ctx, base, ['/api/2.5/tenders', ctx.params.id, 'cancellations', ...parts].join('/'));
  const visibleTender = async (ctx: Ctx) => {
    const { doc } = await loadTender(ctx.state.session, ctx.params.id);
    return { visible: visibleData(doc, ctx.state.viewer, TENDER_MASK), stored: doc.data };
  };

  router.post('/', async (ctx) => {
    const cancellation = await addCancellation(ctx, ctx.params.id);
    created(ctx, path(ctx, cancellation.id as string), { data: cancellation });
  });

  router.get('/', async (ctx) => {
    ctx.body = { data: cancellationsOf((await visibleTender(ctx)).visible) };
  });

  router.get('/:cancellationId', async (ctx) => {
    ctx.body = { data: findCancellation((await visibleTender(ctx)).visible, ctx.params.cancellationId) };
  });

  router.patch('/:cancellationId', async (ctx) => {
    ctx.body = { data: await patchCancellation(ctx, ctx.params.id, ctx.params.cancellationId) };
  });

  // Uploads, versions and metadata as the tender's cancellation rules allow (docs/tenders.md §Cancellations).
  subResourceDocumentWrites(router, deps, '/:cancellationId/documents', tenderDocumentPatch, heldCancellationDocuments);

  router.get('/:cancellationId/documents', async (ctx) => {
    listDocuments(ctx, itemsOf(findCancellation((await visibleTender(ctx)).visible, ctx.params.cancellationId), 'documents'));
  });

  router.get('/:cancellationId/documents/:documentId', async (ctx) => {
    const { visible, stored } = await visibleTender(ctx);
    const documentsIn = (tender: typeof stored) => itemsOf(findCancellation(tender, ctx.params.cancellationId), 'documents');
    await answerDocument(ctx, documentsIn(visible), documentsIn(stored));
  });

  return router;
}
