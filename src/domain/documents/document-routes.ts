import Router from '@koa/router';
import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app-deps';
import type { Ctx, RequestState } from '../../http/context';
import { apiError, notFound, type ApiError } from '../../http/errors';
import { absoluteUrl, created } from '../../http/render';
import type { Doc, Kind, StoreSession, Stored } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import { commit, loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import type { Viewer } from '../../http/auth';
import type { RestrictedMode } from '../../config';
import { readFileField } from './multipart-file';
import { itemById, itemsOf } from '../core/items';

/** An object kind that holds documents: who reads them, who uploads, and in which statuses. */
export interface DocumentHost {
  kind: Kind;
  /** The kind's word in the reference's messages (`… in current (draft) tender status`). */
  name: string;
  /** The object's data as this reader may see it (its hiding rules applied), or a 403 for a reader with no access. */
  view(doc: ObjectDoc, viewer: Viewer, mode: RestrictedMode): Doc;
  /** The object whose owner token authorizes uploads: the object itself, or its framework. */
  authority(session: StoreSession, stored: Stored): Promise<ObjectDoc>;
  /** Statuses in which documents may be added; the reference's message names the current one. */
  acceptsIn(data: Doc): string[];
  /** What adding a document also changes in the object (its procedure's rules), or refuses; the object as it is saved. */
  withDocumentAdded?(doc: ObjectDoc, ctx: Ctx): Promise<ObjectDoc>;
  /** The kind's own refusal in other statuses, where it is not the common 403 `Can't add document in current (…) status`. */
  refusal?(status: string): ApiError;
}

const documentsOf = (data: Doc): Doc[] => itemsOf(data, 'documents');
const findDocument = (documents: Doc[], id: string) => itemById({ documents }, 'documents', id, 'document_id');

/**
 * Stores the request's multipart `file` and describes it as a document listed at `listPath` (the server computing
 * `md5:` hash, format and dates); `url` is the download address. Every kind's and sub-resource's uploads go here.
 */
export async function uploadedDocument(ctx: Ctx, deps: AppDeps, listPath: string): Promise<Doc> {
  // Documents come as files: a JSON body would name a URL of a document service we do not trust.
  if (!ctx.is('multipart/form-data')) throw apiError(403, 'Can add document only from document service.', { name: 'url' });
  const file = await readFileField(ctx, deps.config.bodyLimit);
  const id = newId();
  const key = newId();
  await ctx.state.session.putBlob({ id: key, contentType: file.mimeType, data: file.data });
  const stamp = formatKyiv(ctx.state.now);
  return {
    id,
    title: file.filename,
    format: file.mimeType,
    // Stored, so never built from the request's Host (docs/platform.md §Documents and uploads).
    url: `${deps.config.storedUrlBase}${listPath}/${id}?download=${key}`,
    hash: `md5:${createHash('md5').update(file.data).digest('hex')}`,
    language: 'uk',
    datePublished: stamp,
    dateModified: stamp,
  };
}

/**
 * `GET …/documents/{document_id}`: the document as this reader sees it (`visible`), or with `?download=KEY` its
 * bytes, found through the stored (unhidden) document's key.
 */
export async function answerDocument(ctx: Ctx, visible: Doc[], stored: Doc[]): Promise<void> {
  const shown = findDocument(visible, ctx.params.documentId);
  const download = ctx.query.download;
  if (download === undefined) {
    ctx.body = { data: shown };
    return;
  }
  const document = findDocument(stored, ctx.params.documentId);
  const key = downloadKeyOf(document.url);
  const blob = key !== null && download === key ? await ctx.state.session.getBlob(key) : null;
  if (!blob) throw notFound('download');
  // Bytes as stored, never rendered by a browser: the uploader chose their type (docs/platform.md §Documents and uploads).
  ctx.type = 'application/octet-stream';
  ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(String(document.title ?? 'file'))}`);
  ctx.body = blob.data;
}

/**
 * Documents of every kind that has them (beyond the spec's table except #22): upload as multipart `file` by the
 * owner, the server computing `md5:` hash, format and dates; list and read with restricted access as the
 * object; `?download=KEY` answers the bytes (endpoint 22). `url` is the download address, hidden with the title.
 */
export function documentRoutes(deps: AppDeps, host: DocumentHost): Router<RequestState> {
  const { kind, name } = host;
  const router = new Router<RequestState>({ prefix: `/api/2.5/${kind}/:id/documents` });
  const { publicBaseUrl, restrictedMode } = deps.config;
  const load = (ctx: Ctx) => loadObject(ctx.state.session, kind, ctx.params.id);
  // Documents are read from the object as this reader sees it, so they are hidden exactly as the object is.
  const view = (ctx: Ctx, doc: ObjectDoc) => host.view(doc, ctx.state.viewer, restrictedMode);

  router.post('/', async (ctx) => {
    const stored = await load(ctx);
    requireBroker(ctx);
    requireOwner(ctx, await host.authority(ctx.state.session, stored));
    const doc = stored.doc;
    if (!host.acceptsIn(doc.data).includes(doc.data.status)) {
      throw host.refusal?.(doc.data.status) ?? apiError(403, `Can't add document in current (${doc.data.status}) ${name} status`);
    }
    const path = `/api/2.5/${kind}/${doc.data.id}/documents`;
    const document = await uploadedDocument(ctx, deps, path);
    const data = { ...doc.data, documents: [...documentsOf(doc.data), document], dateModified: document.dateModified };
    const added = host.withDocumentAdded ? await host.withDocumentAdded({ ...doc, data }, ctx) : { ...doc, data };
    await commit(ctx.state.session, [updateOf(stored, added, ['documents'])]);
    created(ctx, absoluteUrl(ctx, publicBaseUrl, `${path}/${document.id}`), { data: document });
  });

  router.get('/', async (ctx) => {
    const { doc } = await load(ctx);
    ctx.body = { data: documentsOf(view(ctx, doc)) };
  });

  router.get('/:documentId', async (ctx) => {
    const { doc } = await load(ctx);
    await answerDocument(ctx, documentsOf(view(ctx, doc)), documentsOf(doc.data));
  });

  return router;
}

/**
 * The blob key of a stored document's `url`; null for a url this API did not write (a PATCH of another era, a
 * planted value), which downloads as 404 rather than failing to parse (docs/platform.md §Documents and uploads).
 */
function downloadKeyOf(url: unknown): string | null {
  if (typeof url !== 'string' || !URL.canParse(url)) return null;
  return new URL(url).searchParams.get('download');
}
