import Router from '@koa/router';
import type { AppDeps, RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx, RequestState } from '../../../http/context';
import { forbidden } from '../../../http/errors';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import { itemsOf } from '../../core/items';
import { answerDocument, listDocuments, subResourceDocumentWrites, type HeldDocuments } from '../../documents/document-routes';
import { loadTenderOf, tenderDocumentPatch, tenderListReads, tenderOwner, tenderPartOwner } from '../tender.routes';
import { visibleData } from '../restricted-view';
import { TENDER_MASK } from '../tender.mask';
import {
  addCancellation,
  findCancellation,
  patchCancellation,
  requireCancellationDocumentsWritable,
  saveCancellationDocuments,
  type TenderCancellation,
} from './cancellation-lifecycle';
import { patchCancellationSchema, postCancellationSchema } from './cancellation.schema';

const PATH = '/api/2.5/tenders/:id/cancellations';

/** The tender as this reader sees it and as stored: its cancellations are read from it. */
async function visibleTender(ctx: Ctx) {
  const { doc } = await loadTenderOf(ctx);
  return { visible: visibleData(doc, ctx.state.viewer, TENDER_MASK), stored: doc.data };
}

/** The cancellation the path names, with its stored tender: 404 for an unknown one. */
async function loadCancellation(ctx: Ctx): Promise<TenderCancellation> {
  const stored = await loadTenderOf(ctx);
  return { stored, cancellation: findCancellation(stored.doc.data, ctx.params.cancellationId) };
}

/**
 * `/tenders/{id}/cancellations[/{cancellation_id}]` (docs/tenders.md §Cancellations), changed by the tender's owner.
 * Readers see cancellations as they see the tender: the hiding table names no part of them.
 */
export function cancellationRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return [
    route({
      method: 'post',
      path: PATH,
      summary: 'Starts a cancellation of a tender or a lot (draft)',
      load: loadTenderOf,
      access: tenderOwner,
      body: [{ data: postCancellationSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const cancellation = await addCancellation(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${ctx.params.id}/cancellations/${cancellation.id}`), { data: cancellation });
      },
    }),
    route({
      method: 'patch',
      path: `${PATH}/:cancellationId`,
      summary: 'Changes a draft cancellation, makes it take effect or withdraws it',
      load: loadCancellation,
      access: tenderPartOwner,
      body: [{ data: patchCancellationSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await patchCancellation(ctx.state.session, loaded, bodyData(ctx), ctx.state.now) };
      },
    }),
    ...tenderListReads('cancellations', 'cancellationId', 'cancellation_id', {
      list: 'Cancellations of a tender',
      one: 'One cancellation of a tender',
    }),
  ];
}

/**
 * A cancellation's documents for `POST`, `PUT` and `PATCH` by the tender's owner, as the reference's
 * `CancellationDocumentState`: while the tender may still be cancelled, whatever the cancellation's status.
 */
async function heldCancellationDocuments(ctx: Ctx): Promise<HeldDocuments> {
  const held = await loadCancellation(ctx);
  return {
    documents: itemsOf(held.cancellation, 'documents'),
    listPath: `/api/2.5/tenders/${ctx.params.id}/cancellations/${held.cancellation.id}/documents`,
    writable() {
      if (!tenderPartOwner.owns(ctx, held)) throw forbidden();
      requireCancellationDocumentsWritable(held.stored);
    },
    save: (documents) => saveCancellationDocuments(ctx.state.session, held, documents, ctx.state.now),
  };
}

/** `/tenders/{id}/cancellations/{cancellation_id}/documents[/{document_id}]`, served by the document module. */
export function cancellationDocumentRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: PATH });
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
