import { createHash } from 'node:crypto';
import { apiError, notFound } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import type { DocumentHost } from '../core/document-host';
import { newId } from '../core/ids';
import { itemsOf } from '../core/items';
import { mergePatch } from '../core/validation';
import type { ObjectDoc } from '../core/object-doc';
import type { StoredObject } from '../core/objects';
import type { DocumentVersion, HeldVersion } from '../core/shapes';
import { updateOf } from '../save-rules';
import type { UploadedFile } from './multipart-file';

export const documentsOf = (data: { documents?: HeldVersion[] }): HeldVersion[] => itemsOf(data, 'documents');

/** Every version of a document, oldest first (docs/platform.md §Document versions); 404 `document_id` if none. */
export function versionsOf<V extends HeldVersion>(documents: V[], id: string): V[] {
  const versions = documents.filter((d) => d.id === id);
  if (!versions.length) throw notFound('document_id');
  return versions;
}
export const findDocument = <V extends HeldVersion>(documents: V[], id: string): V => versionsOf(documents, id).at(-1)!;

/** The latest version of each document, ordered by `dateModified` (the list without `?all`). */
export function latestVersions<V extends HeldVersion>(documents: V[]): V[] {
  const byId = new Map<unknown, V>();
  for (const d of documents) byId.set(d.id, d);
  return [...byId.values()].sort((a, b) => String(a.dateModified).localeCompare(String(b.dateModified)));
}

/**
 * Stores an uploaded file and describes it as a document whose download address starts with `url` (the server
 * computing `md5:` hash, format and dates). Every kind's and sub-resource's uploads go here; a new version of a
 * document passes its `id`.
 */
export async function storedDocument(
  session: StoreSession,
  file: UploadedFile,
  url: string,
  now: Date,
  id = newId(),
): Promise<DocumentVersion> {
  const key = newId();
  await session.putBlob({ id: key, contentType: file.mimeType, data: file.data });
  const stamp = formatKyiv(now);
  return {
    id,
    title: file.filename,
    format: file.mimeType,
    url: `${url}/${id}?download=${key}`,
    hash: `md5:${createHash('md5').update(file.data).digest('hex')}`,
    datePublished: stamp,
    dateModified: stamp,
  };
}

/** A JSON document's members as the request gave them, `null`s dropped (the reference's `delete_nones`). */
export type GivenDocument = Record<string, unknown> & { title: string; format: string; url: string; hash?: string };

/**
 * A document whose file is on the document service under `key` (docs/platform.md §Document service): the request's
 * members, its `url` this API's download address (`url` the list's) with that key, as the reference's
 * `update_document_url` stores it; a new version passes its `id`.
 */
export function registeredDocument(given: GivenDocument, key: string, url: string, now: Date, id = newId()): DocumentVersion {
  const stamp = formatKyiv(now);
  return {
    ...(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null)) as GivenDocument),
    id,
    url: `${url}/${id}?${new URLSearchParams({ download: key }).toString()}`,
    datePublished: stamp,
    dateModified: stamp,
  };
}

/** What a new version always takes from the version it replaces, whatever the request says (`force_replace`). */
const KEPT_ON_PUT = new Set(['id', 'author', 'format', 'documentType']);

/**
 * `PUT …/documents/{document_id}`: a new version from the uploaded document with the rest of the `latest` carried
 * over, members a JSON request `given` replacing theirs, appended, the earlier versions kept
 * (`update_doc_fields_on_put_document`; docs/platform.md §Document versions).
 */
export function newVersion(
  documents: HeldVersion[],
  latest: HeldVersion,
  uploaded: DocumentVersion,
  given: Record<string, unknown> = {},
): { document: HeldVersion; documents: HeldVersion[] } {
  const { title, url, hash, datePublished, dateModified } = uploaded;
  const changed = Object.fromEntries(Object.entries(given).filter(([name, v]) => v !== null && !KEPT_ON_PUT.has(name)));
  const document = { ...latest, ...changed, title, url, hash, datePublished, dateModified };
  return { document, documents: [...documents, document] };
}

/**
 * `PATCH …/documents/{document_id}`: the `latest` version's metadata changed in place (`set_item`), `null` removing
 * a member; the earlier versions stay as they were.
 */
export function patchedVersion(
  documents: HeldVersion[],
  latest: HeldVersion,
  patch: Record<string, unknown>,
  now: Date,
): { document: HeldVersion; documents: HeldVersion[] } {
  const merged: Record<string, unknown> = { ...mergePatch(latest, patch), dateModified: formatKyiv(now) };
  const document: HeldVersion = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== null));
  return { document, documents: documents.map((d) => (d === latest ? document : d)) };
}

/**
 * What holds documents (an object, a bid, an award, a cancellation), as one request may change them: the routes'
 * access has judged the writer; the holder's own rules judge the change, and it saves itself with the documents.
 */
export interface DocumentHolder {
  documents: HeldVersion[];
  /** The documents' list address (their `url`s start with it). */
  listPath: string;
  /** The object whose lots, items or changes a document's `relatedItem` names (docs/platform.md §Document fields). */
  parent?: Record<string, unknown>;
  /** The `author` an upload records where the holder has several writers (a complaint's): the one writing now. */
  author?: string;
  /** The holder's status rules for a change (`verb`: `add` for an upload, `update` for the rest). */
  writable(verb: 'add' | 'update', now: Date): unknown;
  /** The holder's own rules on a document as it would be saved, after the shared fields' (a complaint's posts). */
  checkDocument?(document: HeldVersion): void;
  /** Saves the holder with these documents. */
  save(documents: HeldVersion[], session: StoreSession, now: Date): Promise<void>;
}

/** What the documents code reads and writes of an object that holds documents, of any kind. */
export type HostDoc = ObjectDoc<{ id: string; status: string; dateModified: string; documents?: HeldVersion[] }, object, object>;

/**
 * An object's own documents (docs/platform.md §Document versions): writable in the statuses its kind's `host`
 * accepts, saved with a new `dateModified` through the kind's own document rules.
 */
export function objectDocumentHolder(host: DocumentHost, stored: StoredObject<HostDoc>): DocumentHolder {
  const { doc } = stored;
  return {
    documents: documentsOf(doc.data),
    parent: doc.data,
    listPath: `/api/2.5/${host.kind}/${doc.data.id}/documents`,
    writable(verb) {
      const { status } = doc.data;
      if (!host.acceptsIn(doc.data).includes(status)) {
        throw host.refusal?.(status) ?? apiError(403, `Can't ${verb} document in current (${status}) ${host.name} status`);
      }
    },
    async save(documents, session, now) {
      const changed: HostDoc = { ...doc, data: { ...doc.data, documents, dateModified: formatKyiv(now) } };
      const saved = host.withDocumentAdded ? await host.withDocumentAdded(session, changed, now) : changed;
      await session.commit([updateOf(stored, saved, ['documents'])]);
    },
  };
}

/**
 * The blob key of a stored document's `url`; null for a url this API did not write (a PATCH of another era, a
 * planted value), which downloads as 404 rather than failing to parse (docs/platform.md §Documents and uploads).
 */
export function downloadKeyOf(url: unknown): string | null {
  if (typeof url !== 'string' || !URL.canParse(url)) return null;
  return new URL(url).searchParams.get('download');
}
