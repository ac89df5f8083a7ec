import type { RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import {
  documentsOf,
  type DocumentHolder,
  documentReadRoutes,
  documentWriteRoutes,
  TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
} from '../../documents';
import { loadTenderOf, tenderDocumentPatch, tenderListReads, tenderOwner, tenderPartOwner } from '../tender.routes';
import { visibleData } from '../../core/restricted-view';
import { TENDER_MASK } from '../tender.mask';
import {
  addCancellation,
  cancellationDocuments,
  findCancellation,
  patchCancellation,
  type TenderCancellation,
} from './cancellation.lifecycle';
import { patchCancellationSchema, postCancellationSchema } from './cancellation.schema';

const PATH = '/api/2.5/tenders/:id/cancellations';

/** The cancellation the path names, with its stored tender: 404 for an unknown one. */
async function loadCancellation(ctx: Ctx): Promise<TenderCancellation> {
  const stored = await loadTenderOf(ctx);
  return { stored, cancellation: findCancellation(stored.doc.data, ctx.params.cancellationId) };
}

/**
 * `/tenders/{id}/cancellations[/{cancellation_id}[/documents[/{document_id}]]]` (docs/tenders.md §Cancellations),
 * changed by the tender's owner.
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
    ...documentWriteRoutes<DocumentHolder & TenderCancellation>(deps, {
      path: `${PATH}/:cancellationId/documents`,
      load: async (ctx) => cancellationDocuments(await loadCancellation(ctx)),
      access: tenderPartOwner,
      schema: tenderDocumentPatch,
      fields: TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
    }),
    ...documentReadRoutes(deps, {
      path: `${PATH}/:cancellationId/documents`,
      load: loadCancellation,
      // Readers see cancellations as they see the tender.
      visible: (ctx, { stored, cancellation }) =>
        documentsOf(findCancellation(visibleData(stored.doc, ctx.state.viewer, TENDER_MASK), cancellation.id)),
      stored: ({ cancellation }) => documentsOf(cancellation),
    }),
  ];
}
