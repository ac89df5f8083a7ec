import type Joi from 'joi';
import type { RouteDeps } from '../../app-deps';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { apiError, notFound } from '../../http/errors';
import { absoluteUrl, created } from '../../http/render';
import { route, type Access, type MountableRoute } from '../../http/route';
import type { DocumentFields, DocumentHost } from '../core/document-host';
import { loadObject, type ObjectDoc, type StoredObject } from '../core/objects';
import type { HeldVersion } from '../core/shapes';
import { isOwner, ownerOf } from '../core/owner';
import { isBroker } from '../../http/auth';
import { validated } from '../core/validation';
import { documentPatchSchema, documentPostSchema } from './document.schema';
import { documentServiceKey, downloadUrl } from './docservice';
import type { DocserviceConfig } from '../../config';
import type { DocumentVersion } from '../core/shapes';
import { checkDocumentFields, downloadForbidden, isConfidential, uploadFields, withoutConfidentialUrls } from './document-fields';
import {
  documentsOf,
  downloadKeyOf,
  findDocument,
  latestVersions,
  newVersion,
  objectDocumentHolder,
  patchedVersion,
  registeredDocument,
  storedDocument,
  versionsOf,
  type DocumentHolder,
  type GivenDocument,
  type HostDoc,
} from './document-versions';
import { downloadDisposition, downloadType } from './download-headers';
import { readFileField, type UploadedFile } from './multipart-file';

/** Documents come as files, or (`docservice`) as JSON naming the document service's signed url; else this refusal. */
function uploadedFile(ctx: Ctx, limit: number): Promise<UploadedFile> {
  if (!ctx.is('multipart/form-data')) throw apiError(403, 'Can add document only from document service.', { name: 'url' });
  return readFileField(ctx.req, limit);
}

/** `GET …/documents`: the latest version of each document, or with `?all=1` every version as stored. */
export function listDocuments(ctx: Ctx, documents: HeldVersion[]): void {
  ctx.body = { data: ctx.query.all ? documents : latestVersions(documents) };
}

/**
 * `GET …/documents/{document_id}`: the latest version as this reader sees it (`visible`), the earlier ones in
 * `previousVersions`; or with `?download=KEY` the bytes of the stored (unhidden) version with that key, a
 * `buyerOnly` one only where `opensConfidential` (docs/platform.md §Document fields); a version whose file is on
 * the document service, not in the store, redirects there (docs/platform.md §Document service).
 */
export async function answerDocument(
  ctx: Ctx,
  docservice: DocserviceConfig | null,
  visible: HeldVersion[],
  stored: HeldVersion[],
  opensConfidential = false,
): Promise<void> {
  const versions = versionsOf(visible, ctx.params.documentId);
  const download = ctx.query.download;
  if (download === undefined) {
    const previousVersions = versions.slice(0, -1);
    ctx.body = { data: { ...versions.at(-1), ...(previousVersions.length ? { previousVersions } : {}) } };
    return;
  }
  // Every version's file stays downloadable by its own key (docs/platform.md §Document versions).
  const storedVersions = versionsOf(stored, ctx.params.documentId);
  const document = storedVersions.find((v) => downloadKeyOf(v.url) === download);
  // Refused whatever the key, as in the reference: the latest version decides, and a version kept `buyerOnly` stays so.
  if (!opensConfidential && [storedVersions.at(-1)!, document ?? {}].some(isConfidential)) throw downloadForbidden();
  const blob = document ? await ctx.state.session.getBlob(download as string) : null;
  if (!document || (!blob && !docservice)) throw notFound('download');
  ctx.set('Content-Type', downloadType(document.format));
  ctx.set('Content-Disposition', downloadDisposition(document.title));
  if (blob) {
    ctx.body = blob.data;
    return;
  }
  ctx.status = 302;
  ctx.set('Location', downloadUrl(docservice!, download as string, ctx.state.now));
  ctx.body = '';
}

/** The writes of the documents at `path` (`…/documents`) of the holder `load` brings, open to `access`. */
export interface DocumentWrites<Holder extends DocumentHolder> {
  path: string;
  load: (ctx: Ctx) => Promise<Holder>;
  access: Access<Holder>;
  /** The PATCH's body: `documentPatchSchema` of the holder's `documentOf`. */
  schema: Joi.ObjectSchema;
  /** What the holder's documents carry beyond the file (docs/platform.md §Document fields). */
  fields?: DocumentFields;
}

/** A holder and the latest version of the document the path names, loaded before access is judged. */
interface Versioned<Holder> {
  holder: Holder;
  latest: HeldVersion;
}

/** Access to a holder's document, judged on the holder. */
function onHolder<Holder>(access: Access<Holder>): Access<Versioned<Holder>> {
  if (typeof access === 'string' || 'system' in access) return access;
  return { owner: access.owner, owns: (ctx, { holder }) => access.owns(ctx, holder) };
}

/**
 * `POST …/documents` and `PUT|PATCH …/documents/{document_id}` of any holder, as routes of the table
 * (docs/platform.md §Document versions): the holder (and for PUT and PATCH the document: 404 `document_id` first) is
 * loaded, access judged, then the holder's own rules (`writable`), the upload or the body, and the holder saves.
 */
export function documentWriteRoutes<Holder extends DocumentHolder>(deps: RouteDeps, writes: DocumentWrites<Holder>): MountableRoute[] {
  const { bodyLimit, publicBaseUrl, storedUrlBase, docservice } = deps.config;
  const { path, load, schema, fields } = writes;
  const postSchema = documentPostSchema(schema);
  const loadVersioned = async (ctx: Ctx): Promise<Versioned<Holder>> => {
    const holder = await load(ctx);
    return { holder, latest: findDocument(holder.documents, ctx.params.documentId) };
  };
  /**
   * The document a POST or PUT gives, once the holder takes a change (`verb`): an uploaded file, stored; or a JSON
   * body naming the document service's signed url, its members checked first as the reference's
   * (docs/platform.md §Document service). `given` is the JSON's members, none for a file.
   */
  const givenDocument = async (ctx: Ctx, holder: Holder, verb: 'add' | 'update', id?: string) => {
    const { session, now } = ctx.state;
    // The stored url is never built from the request's Host (docs/platform.md §Documents and uploads).
    const listUrl = `${storedUrlBase}${holder.listPath}`;
    if (ctx.is('multipart/form-data') || !docservice) {
      await holder.writable(verb, now);
      return { document: await storedDocument(session, await uploadedFile(ctx, bodyLimit), listUrl, now, id), given: {} };
    }
    const given = validated<GivenDocument>(postSchema, bodyData(ctx));
    await holder.writable(verb, now);
    const key = documentServiceKey(docservice, given.url, given.hash);
    return { document: registeredDocument(given, key, listUrl, now, id), given };
  };
  return [
    route({
      method: 'post',
      path,
      summary: "Adds a document: the multipart field `file`, or JSON naming the document service's signed url",
      load,
      access: writes.access,
      body: 'document',
      result: 'created',
      writes: true,
      handle: async (ctx, holder) => {
        const { session, now } = ctx.state;
        const given = await givenDocument(ctx, holder, 'add');
        const author = holder.author ? { author: holder.author } : {};
        const document: DocumentVersion = { ...uploadFields(fields), ...author, ...given.document };
        checkDocumentFields(fields, document, holder.parent);
        holder.checkDocument?.(document);
        await holder.save([...holder.documents, document], session, now);
        created(ctx, absoluteUrl(ctx, publicBaseUrl, `${holder.listPath}/${document.id}`), { data: document });
      },
    }),
    route({
      method: 'put',
      path: `${path}/:documentId`,
      summary: 'Adds a new version of a document: a file or a signed url, as the POST',
      load: loadVersioned,
      access: onHolder(writes.access),
      body: 'document',
      result: 'object',
      writes: true,
      handle: async (ctx, { holder, latest }) => {
        const { session, now } = ctx.state;
        const given = await givenDocument(ctx, holder, 'update', latest.id);
        const { document, documents } = newVersion(holder.documents, latest, given.document, given.given);
        checkDocumentFields(fields, document, holder.parent);
        holder.checkDocument?.(document);
        await holder.save(documents, session, now);
        ctx.body = { data: document };
      },
    }),
    route({
      method: 'patch',
      path: `${path}/:documentId`,
      summary: "Changes the latest version's metadata",
      load: loadVersioned,
      access: onHolder(writes.access),
      body: [{ data: schema }],
      result: 'object',
      writes: true,
      handle: async (ctx, { holder, latest }) => {
        const { session, now } = ctx.state;
        await holder.writable('update', now);
        const patch = validated<Record<string, unknown>>(schema, bodyData(ctx));
        const { document, documents } = patchedVersion(holder.documents, latest, patch, now);
        checkDocumentFields(fields, document, holder.parent);
        holder.checkDocument?.(document);
        await holder.save(documents, session, now);
        ctx.body = { data: document };
      },
    }),
  ];
}

/** The reads of the documents at `path` of what `load` brings: as this reader sees them (`visible`), and as stored. */
export interface DocumentReads<Loaded> {
  path: string;
  load: (ctx: Ctx) => Promise<Loaded>;
  /** The documents as this reader sees them (hidden as their holder is), or a refusal. */
  visible: (ctx: Ctx, loaded: Loaded) => HeldVersion[];
  /** The documents as stored: every version downloads by its own key. */
  stored: (loaded: Loaded) => HeldVersion[];
  /** Whether this reader downloads `buyerOnly` documents (docs/platform.md §Document fields); nobody where absent. */
  opensConfidential?: (loaded: Loaded) => boolean;
}

/** `GET …/documents[/{document_id}]` of any holder, as routes of the table (docs/platform.md §Document versions). */
export function documentReadRoutes<Loaded>(deps: RouteDeps, reads: DocumentReads<Loaded>): MountableRoute[] {
  const { docservice } = deps.config;
  const { path, load, visible, stored, opensConfidential: opens } = reads;
  return [
    route({
      method: 'get',
      path,
      summary: 'Documents of the object: the latest version of each',
      load,
      access: 'public',
      result: 'list',
      query: [{ name: 'all', description: 'any value: every version of every document' }],
      handle: (ctx, loaded) => listDocuments(ctx, visible(ctx, loaded)),
    }),
    route({
      method: 'get',
      path: `${path}/:documentId`,
      summary: 'One document (its earlier versions in previousVersions), or its bytes with `download`',
      load,
      access: 'public',
      result: 'document',
      query: [{ name: 'download', description: "the key from the document url: the file itself, or 302 to the document service's" }],
      handle: (ctx, loaded) => answerDocument(ctx, docservice, visible(ctx, loaded), stored(loaded), opens?.(loaded)),
    }),
  ];
}

/** An object's documents, and the object whose owner may write them (`DocumentHost.authority`). */
type ObjectDocuments = DocumentHolder & { authority: ObjectDoc };

/**
 * Documents of every kind that has them (beyond the spec's table except #22), as routes of the table: upload as
 * multipart `file` by the owner, the server computing `md5:` hash, format and dates; a new version of the file under
 * the same id (PUT) and metadata changes (PATCH) by the owner (docs/platform.md §Document versions); list and read
 * with restricted access as the object; `?download=KEY` answers the bytes (endpoint 22). `url` is the download
 * address, hidden with the title.
 */
export function documentTable(deps: RouteDeps, host: DocumentHost): MountableRoute[] {
  const path = `/api/2.5/${host.kind}/:id/documents`;
  const loadStored = (ctx: Ctx) => loadObject<HostDoc>(ctx.state.session, host.kind, ctx.params.id);
  const load = async (ctx: Ctx): Promise<ObjectDocuments> => {
    const stored = await loadStored(ctx);
    return { ...objectDocumentHolder(host, stored), authority: await host.authority(ctx.state.session, stored) };
  };
  const { fields } = host;
  return [
    ...documentWriteRoutes(deps, {
      path,
      load,
      access: ownerOf(`the ${host.name}`, (held: ObjectDocuments) => held.authority),
      schema: documentPatchSchema(host.documentOf, host.documentTypes, fields),
      fields,
    }),
    ...documentReadRoutes(deps, {
      path,
      load: async (ctx) => {
        const stored = await loadStored(ctx);
        return { stored, opensConfidential: await opensConfidential(ctx, host, stored) };
      },
      // Documents are read from the object as this reader sees it, so they are hidden exactly as the object is.
      visible: (ctx, { stored, opensConfidential }) => {
        const documents = documentsOf(host.view(stored.doc, ctx.state.viewer, deps.config.restrictedMode));
        return opensConfidential ? documents : withoutConfidentialUrls(documents);
      },
      stored: ({ stored }) => documentsOf(stored.doc.data),
      opensConfidential: ({ opensConfidential }) => opensConfidential,
    }),
  ];
}

/**
 * Whether this reader opens the object's `buyerOnly` documents: the owner, with the token, of one of the host's
 * `confidentialReaders` (docs/platform.md §Document fields). Asked only of an object that has such a document.
 */
async function opensConfidential(ctx: Ctx, host: DocumentHost, stored: StoredObject<HostDoc>): Promise<boolean> {
  if (!documentsOf(stored.doc.data).some(isConfidential)) return true;
  if (!host.confidentialReaders || !isBroker(ctx.state.viewer)) return false;
  const readers = await host.confidentialReaders(ctx.state.session, stored);
  return readers.some((doc) => isOwner(ctx, doc));
}
