import Router from '@koa/router';
import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app-deps';
import type { Ctx, RequestState } from '../../http/context';
import { apiError, notFound } from '../../http/errors';
import { absoluteUrl, created } from '../../http/render';
import type { Doc, Kind, StoreSession, Stored } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import { commit, loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import type { Viewer } from '../../http/auth';
import type { RestrictedMode } from '../core/restricted-access';
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
}

const documentsOf = (data: Doc): Doc[] => itemsOf(data, 'documents');
const findDocument = (data: Doc, id: string) => itemById(data, 'documents', id, 'document_id');

/**
 * Documents of every kind that has them (beyond the spec's table except #22): upload as multipart `file` by the
 * owner, the server computing `md5:` hash, format and dates; list and read with restricted access as the
 * object; `?download=KEY` answers the bytes (endpoint 22). `url` is the download address, hidden with the title.
 */
export function documentRoutes(deps: AppDeps, host: DocumentHost): Router<RequestState> {
  const { kind, name } = host;
  const router = new Router<RequestState>({ prefix: `/api/2.5/${kind}/:id/documents` });
  const { publicBaseUrl, storedUrlBase, restrictedMode, bodyLimit } = deps.config;
  const load = (ctx: Ctx) => loadObject(ctx.state.session, kind, ctx.params.id);
  // Documents are read from the object as this reader sees it, so they are hidden exactly as the object is.
  const view = (ctx: Ctx, doc: ObjectDoc) => host.view(doc, ctx.state.viewer, restrictedMode);

  router.post('/', async (ctx) => {
    const stored = await load(ctx);
    requireBroker(ctx);
    requireOwner(ctx, await host.authority(ctx.state.session, stored));
    const doc = stored.doc;
    if (!host.acceptsIn(doc.data).includes(doc.data.status)) {
      throw apiError(403, `Can't add document in current (${doc.data.status}) ${name} status`);
    }
    // Documents come as files: a JSON body would name a URL of a document service we do not trust.
    if (!ctx.is('multipart/form-data')) throw apiError(403, 'Can add document only from document service.', { name: 'url' });
    const file = await readFileField(ctx, bodyLimit);
    const id = newId();
    const key = newId();
    await ctx.state.session.putBlob({ id: key, contentType: file.mimeType, data: file.data });
    const stamp = formatKyiv(ctx.state.now);
    const path = `/api/2.5/${kind}/${doc.data.id}/documents/${id}`;
    const document = {
      id,
      title: file.filename,
      format: file.mimeType,
      // Stored, so never built from the request's Host (docs/platform.md §Documents and uploads).
      url: `${storedUrlBase}${path}?download=${key}`,
      hash: `md5:${createHash('md5').update(file.data).digest('hex')}`,
      language: 'uk',
      datePublished: stamp,
      dateModified: stamp,
    };
    const data = { ...doc.data, documents: [...documentsOf(doc.data), document], dateModified: stamp };
    await commit(ctx.state.session, [updateOf(stored, { ...doc, data }, ['documents'])]);
    created(ctx, absoluteUrl(ctx, publicBaseUrl, path), { data: document });
  });

  router.get('/', async (ctx) => {
    const { doc } = await load(ctx);
    ctx.body = { data: documentsOf(view(ctx, doc)) };
  });

  router.get('/:documentId', async (ctx) => {
    const { doc } = await load(ctx);
    const visible = findDocument(view(ctx, doc), ctx.params.documentId);
    const download = ctx.query.download;
    if (download === undefined) {
      ctx.body = { data: visible };
      return;
    }
    const document = findDocument(doc.data, ctx.params.documentId);
    const key = downloadKeyOf(document.url);
    const blob = key !== null && download === key ? await ctx.state.session.getBlob(key) : null;
    if (!blob) throw notFound('download');
    // Bytes as stored, never rendered by a browser: the uploader chose their type (docs/platform.md §Documents and uploads).
    ctx.type = 'application/octet-stream';
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(String(document.title ?? 'file'))}`);
    ctx.body = blob.data;
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
