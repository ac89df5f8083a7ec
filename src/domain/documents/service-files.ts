import { createHash } from 'node:crypto';
import { apiError } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { newId } from '../core/ids';
import type { UploadedFile } from './multipart-file';

/**
 * The files of the built-in document service, in the store's blobs beside the uploaded documents' but under their own
 * names (docs/platform.md §Built-in document service): `docservice/<key>` the bytes, `docservice/<key>/meta` what
 * the service knows of them. A document download (`?download=<key>`) never finds them, so it redirects to the
 * service, and the service never serves another blob.
 */
const contentId = (key: string) => `docservice/${key}`;
const metaId = (key: string) => `docservice/${key}/meta`;

/** What the service answers of a file: its `md5:` hash, and once uploaded its media type and name. */
export interface ServiceFile {
  key: string;
  hash: string;
  format?: string;
  title?: string;
}

async function metaOf(session: StoreSession, key: string): Promise<ServiceFile | null> {
  const blob = await session.getBlob(metaId(key));
  return blob ? { key, ...(JSON.parse(blob.data.toString('utf8')) as Omit<ServiceFile, 'key'>) } : null;
}

const putMeta = (session: StoreSession, { key, ...meta }: ServiceFile) =>
  session.putBlob({ id: metaId(key), contentType: 'application/json', data: Buffer.from(JSON.stringify(meta)) });

/** `POST /register`: a new key awaiting the file whose hash is `hash`. */
export async function registerFile(session: StoreSession, hash: string): Promise<string> {
  const key = newId();
  await putMeta(session, { key, hash });
  return key;
}

/**
 * Stores `file` under a new key (`POST /upload`), or under the registered `key` (`POST /upload/{id}`) with the
 * reference's refusals: an unknown key 404 `url/doc_id`, one whose file is already there 403 `url/doc_id`
 * `Content already uploaded`, a file of another hash than registered 403 `body/file` `Invalid checksum`.
 */
export async function storeFile(session: StoreSession, file: UploadedFile, registered?: string): Promise<ServiceFile> {
  const hash = `md5:${createHash('md5').update(file.data).digest('hex')}`;
  const key = registered ?? newId();
  if (registered !== undefined) {
    const meta = await metaOf(session, registered);
    if (!meta) throw apiError(404, 'Not Found', { location: 'url', name: 'doc_id' });
    if ((await session.getBlob(contentId(key)))?.data.length) {
      throw apiError(403, 'Content already uploaded', { location: 'url', name: 'doc_id' });
    }
    if (meta.hash !== hash) throw apiError(403, 'Invalid checksum', { location: 'body', name: 'file' });
  }
  // The bytes first: a file whose meta names a title is always whole.
  await session.putBlob({ id: contentId(key), contentType: file.mimeType, data: file.data });
  const stored = { key, hash, format: file.mimeType, title: file.filename };
  await putMeta(session, stored);
  return stored;
}

/** `GET /get/{key}`: the file and its bytes; `empty` for a key registered but not uploaded, or an empty file; null for none. */
export async function readFile(session: StoreSession, key: string): Promise<{ file: ServiceFile; data: Buffer } | 'empty' | null> {
  const meta = await metaOf(session, key);
  if (!meta) return null;
  const blob = await session.getBlob(contentId(key));
  return blob?.data.length ? { file: meta, data: blob.data } : 'empty';
}
