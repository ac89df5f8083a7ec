import Router from '@koa/router';
import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app-deps';
import type { Ctx, RequestState } from '../../http/context';
import { apiError, notFound } from '../../http/errors';
import { absoluteUrl, created } from '../../http/render';
import type { Doc, Stored } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import type { DocumentHost } from '../core/document-host';
import { newId } from '../core/ids';
import { loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import { readFileField } from './multipart-file';
import { itemsOf } from '../core/items';
import { bodyData } from '../../http/body';
import { mergePatch, validated } from '../core/validation';
import type Joi from 'joi';
import { documentPatchSchema } from './document.schema';

const documentsOf = (data: Doc): Doc[] => itemsOf(data, 'documents');

/** Every version of a document, oldest first (docs/platform.md §Document versions); 404 `document_id` if none. */
function versionsOf(documents: Doc[], id: string): Doc[] {
  const versions = documents.filter((d) => d.id === id);
  if (!versions.length) throw notFound('document_id');
  return versions;
}
const findDocument = (documents: Doc[], id: string): Doc => versionsOf(documents, id).at(-1)!;

/** The latest version of each document, ordered by `dateModified` (the list without `?all`). */
function latestVersions(documents: Doc[]): Doc[] {
  const byId = new Map<unknown, Doc>();
  for (const d of documents) byId.set(d.id, d);
  return [...byId.values()].sort((a, b) => String(a.dateModified).localeCompare(String(b.dateModified)));
}

/**
 * Stores the request's multipart `file` and describes it as a document listed at `listPath` (the server computing
 * `md5:` hash, format and dates); `url` is the download address. Every kind's and sub-resource's uploads go here;
 * a new version of a document passes its `id`.
 */
export async function uploadedDocument(ctx: Ctx, deps: AppDeps, listPath: string, id = newId()): Promise<Doc> {
  // Documents come as files: a JSON body would name a URL of a document service we do not trust.
  if (!ctx.is('multipart/form-data')) throw apiError(403, 'Can add document only from document service.', { name: 'url' });
  const file = await readFileField(ctx, deps.config.bodyLimit);
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

/** `GET …/documents`: the latest version of each document, or with `?all=1` every version as stored. */
export function listDocuments(ctx: Ctx, documents: Doc[]): void {
  ctx.body = { data: ctx.query.all ? documents : latestVersions(documents) };
}

/**
 * `PUT …/documents/{document_id}` on any holder of `documents` (an object, a bid, an award, a cancellation): the
 * latest version found (404 first), the writer `authorized` by the holder's own rules, then a new version from the
 * request's file with the rest of the latest carried over, appended, the earlier versions kept
 * (`update_doc_fields_on_put_document`; docs/platform.md §Document versions). The caller saves `documents`.
 */
export async function newVersion(
  ctx: Ctx,
  deps: AppDeps,
  documents: Doc[],
  listPath: string,
  authorized: () => unknown,
): Promise<{ document: Doc; documents: Doc[] }> {
  const latest = findDocument(documents, ctx.params.documentId);
  await authorized();
  const { title, url, hash, datePublished, dateModified } = await uploadedDocument(ctx, deps, listPath, latest.id);
  const document = { ...latest, title, url, hash, datePublished, dateModified };
  return { document, documents: [...documents, document] };
}

/**
 * `PATCH …/documents/{document_id}` on any holder of `documents`: the latest version's metadata changed in place
 * (`set_item`), `null` removing a member, once the writer is `authorized`; the earlier versions stay as they were.
 */
export async function patchedVersion(
  ctx: Ctx,
  documents: Doc[],
  schema: Joi.ObjectSchema,
  authorized: () => unknown,
): Promise<{ document: Doc; documents: Doc[] }> {
  const latest = findDocument(documents, ctx.params.documentId);
  await authorized();
  const patch = validated<Doc>(schema, bodyData(ctx));
  const merged = { ...mergePatch(latest, patch), dateModified: formatKyiv(ctx.state.now) };
  const document = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== null));
  return { document, documents: documents.map((d) => (d === latest ? document : d)) };
}

/** A sub-resource's documents as one request may change them: found, checked by the holder's rules, saved with it. */
export interface HeldDocuments {
  documents: Doc[];
  /** The documents' list address (their `url`s start with it). */
  listPath: string;
  /** The holder's authority and status rules for a change (`verb`: `add` for an upload, `update` for the rest). */
  writable(verb: 'add' | 'update'): unknown;
  /** Saves the holder with these documents. */
  save(documents: Doc[]): Promise<void>;
}

/**
 * `POST …/documents` and `PUT|PATCH …/documents/{document_id}` of a sub-resource (bids, awards, cancellations) at
 * `path` on `router`, through the same upload and version code as an object's (docs/platform.md §Document versions).
 * `held` loads the holder; `schema` is the PATCH's (`documentPatchSchema` of the holder's `documentOf`).
 */
export function subResourceDocumentWrites(
  router: Router<RequestState>,
  deps: AppDeps,
  path: string,
  schema: Joi.ObjectSchema,
  held: (ctx: Ctx) => Promise<HeldDocuments>,
): void {
  router.post(path, async (ctx) => {
    const holder = await held(ctx);
    await holder.writable('add');
    const document = await uploadedDocument(ctx, deps, holder.listPath);
    await holder.save([...holder.documents, document]);
    created(ctx, absoluteUrl(ctx, deps.config.publicBaseUrl, `${holder.listPath}/${document.id}`), { data: document });
  });
  router.put(`${path}/:documentId`, async (ctx) => {
    const holder = await held(ctx);
    const { document, documents } = await newVersion(ctx, deps, holder.documents, holder.listPath, () => holder.writable('update'));
    await holder.save(documents);
    ctx.body = { data: document };
  });
  router.patch(`${path}/:documentId`, async (ctx) => {
    const holder = await held(ctx);
    const { document, documents } = await patchedVersion(ctx, holder.documents, schema, () => holder.writable('update'));
    await holder.save(documents);
    ctx.body = { data: document };
  });
}

/**
 * `GET …/documents/{document_id}`: the latest version as this reader sees it (`visible`), the earlier ones in
 * `previousVersions`; or with `?download=KEY` the bytes of the stored (unhidden) version with that key.
 */
export async function answerDocument(ctx: Ctx, visible: Doc[], stored: Doc[]): Promise<void> {
  const versions = versionsOf(visible, ctx.params.documentId);
  const download = ctx.query.download;
  if (download === undefined) {
    const previousVersions = versions.slice(0, -1);
    ctx.body = { data: { ...versions.at(-1), ...(previousVersions.length ? { previousVersions } : {}) } };
    return;
  }
  // Every version's file stays downloadable by its own key (docs/platform.md §Document versions).
  const document = versionsOf(stored, ctx.params.documentId).find((v) => downloadKeyOf(v.url) === download);
  const blob = document ? await ctx.state.session.getBlob(download as string) : null;
  if (!document || !blob) throw notFound('download');
  // Bytes as stored, never rendered by a browser: the uploader chose their type (docs/platform.md §Documents and uploads).
  ctx.type = 'application/octet-stream';
  ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(String(document.title ?? 'file'))}`);
  ctx.body = blob.data;
}

/**
 * Documents of every kind that has them (beyond the spec's table except #22): upload as multipart `file` by the
 * owner, the server computing `md5:` hash, format and dates; a new version of the file under the same id (PUT)
 * and metadata changes (PATCH) by the owner (docs/platform.md §Document versions); list and read with restricted
 * access as the object; `?download=KEY` answers the bytes (endpoint 22). `url` is the download address, hidden
 * with the title.
 */
export function documentRoutes(deps: AppDeps, host: DocumentHost): Router<RequestState> {
  const { kind, name } = host;
  const router = new Router<RequestState>({ prefix: `/api/2.5/${kind}/:id/documents` });
  const { publicBaseUrl, restrictedMode } = deps.config;
  const patchSchema = documentPatchSchema(host.documentOf);
  const load = (ctx: Ctx) => loadObject(ctx.state.session, kind, ctx.params.id);
  // Documents are read from the object as this reader sees it, so they are hidden exactly as the object is.
  const view = (ctx: Ctx, doc: ObjectDoc) => host.view(doc, ctx.state.viewer, restrictedMode);
  const listPath = (stored: Stored) => `/api/2.5/${kind}/${stored.doc.data.id}/documents`;

  /** The owner's write in a status that accepts documents; `verb` names the refusal (`add`, `update`). */
  async function ownedWritable(ctx: Ctx, stored: Stored, verb: string): Promise<void> {
    requireBroker(ctx);
    requireOwner(ctx, await host.authority(ctx.state.session, stored));
    const { status } = stored.doc.data;
    if (!host.acceptsIn(stored.doc.data).includes(status)) {
      throw host.refusal?.(status) ?? apiError(403, `Can't ${verb} document in current (${status}) ${name} status`);
    }
  }

  /** Saves the object with `documents` and a new `dateModified`, through the kind's own document rules. */
  async function save(ctx: Ctx, stored: Stored, documents: Doc[]): Promise<void> {
    const doc = stored.doc as ObjectDoc;
    const data = { ...doc.data, documents, dateModified: formatKyiv(ctx.state.now) };
    const changed = host.withDocumentAdded ? await host.withDocumentAdded({ ...doc, data }, ctx) : { ...doc, data };
    await ctx.state.session.commit([updateOf(stored, changed, ['documents'])]);
  }

  router.post('/', async (ctx) => {
    const stored = await load(ctx);
    await ownedWritable(ctx, stored, 'add');
    const document = await uploadedDocument(ctx, deps, listPath(stored));
    await save(ctx, stored, [...documentsOf(stored.doc.data), document]);
    created(ctx, absoluteUrl(ctx, publicBaseUrl, `${listPath(stored)}/${document.id}`), { data: document });
  });

  router.put('/:documentId', async (ctx) => {
    const stored = await load(ctx);
    const { document, documents } = await newVersion(ctx, deps, documentsOf(stored.doc.data), listPath(stored), () =>
      ownedWritable(ctx, stored, 'update'),
    );
    await save(ctx, stored, documents);
    ctx.body = { data: document };
  });

  router.patch('/:documentId', async (ctx) => {
    const stored = await load(ctx);
    const { document, documents } = await patchedVersion(ctx, documentsOf(stored.doc.data), patchSchema, () =>
      ownedWritable(ctx, stored, 'update'),
    );
    await save(ctx, stored, documents);
    ctx.body = { data: document };
  });

  router.get('/', async (ctx) => {
    const { doc } = await load(ctx);
    listDocuments(ctx, documentsOf(view(ctx, doc)));
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
