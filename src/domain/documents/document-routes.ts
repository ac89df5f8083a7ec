import type Router from '@koa/router';
import type Joi from 'joi';
import type { AppDeps } from '../../app-deps';
import type { Ctx, RequestState } from '../../http/context';
import { routerOf } from '../../http/route';
import type { DocumentHost } from '../core/document-host';
import type { DocumentHolder } from './document-versions';
import { documentTable, documentWriteRoutes } from './document.routes';
import { TENDER_SUB_RESOURCE_DOCUMENT_FIELDS } from './document.schema';

/*
 * LEGACY FORM, for the modules not yet on the route table (docs/architecture.md §Routes): routers over the same
 * routes as `document.routes.ts`. Removed once every kind's documents are served by the table.
 */

export { answerDocument, listDocuments } from './document.routes';

/** A sub-resource's documents as one request may change them; legacy holders judge access in `writable` too. */
export type HeldDocuments = DocumentHolder;

/** Legacy form of `documentTable`: an object's documents as a router. */
export function documentRoutes(deps: AppDeps, host: DocumentHost): Router<RequestState> {
  return routerOf(documentTable(deps, host));
}

/**
 * Legacy form of `documentWriteRoutes`: `POST …/documents` and `PUT|PATCH …/documents/{document_id}` of a
 * sub-resource (bids, awards, cancellations) at `path` on `router` (docs/platform.md §Document versions). `held`
 * loads the holder, whose `writable` judges the writer as well as the status; `schema` is the PATCH's. Their uploads
 * carry what every tender sub-resource's do (docs/platform.md §Document fields).
 */
export function subResourceDocumentWrites(
  router: Router<RequestState>,
  deps: AppDeps,
  path: string,
  schema: Joi.ObjectSchema,
  held: (ctx: Ctx) => Promise<HeldDocuments>,
): void {
  const fields = TENDER_SUB_RESOURCE_DOCUMENT_FIELDS;
  for (const { description, run } of documentWriteRoutes(deps, { path, load: held, access: 'public', schema, fields })) {
    router[description.method](description.path, run);
  }
}
