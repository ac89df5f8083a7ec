import type { DocserviceConfig } from '../../config';
import { parseJson, readText } from '../../http/body';
import type { Ctx } from '../../http/context';
import { apiError, notFound } from '../../http/errors';
import { route, type MountableRoute } from '../../http/route';
import { downloadUrl } from './docservice';
import { downloadType, serviceDisposition } from './download-headers';
import { readFileField } from './multipart-file';
import { readFile, registerFile, storeFile, type ServiceFile } from './service-files';
import { checkUploadUrl, documentUrl, openedKey, serviceUrl } from './service-signatures';

/** What the built-in document service's routes need (docs/platform.md §Built-in document service). */
export interface ServiceRouteDeps {
  service: DocserviceConfig;
  /** The largest file, as for uploads to the API (BODY_LIMIT). */
  bodyLimit: number;
}

const hashRefusal = (status: number, description: unknown) => apiError(status, description, { name: 'hash' });

/** The reference's `validate_md5`: its descriptions are lists. */
function checkedHash(hash: unknown): string {
  if (typeof hash !== 'string' || !hash.startsWith('md5:')) throw hashRefusal(422, ['Hash type is not supported.']);
  if (hash.length !== 36) throw hashRefusal(422, ['Hash value is wrong length.']);
  if (!/^[0-9a-f]*$/.test(hash.slice(4))) throw hashRefusal(422, ['Hash value is not hexadecimal.']);
  return hash;
}

/**
 * The register body as the reference's `get_data` reads it: a JSON body's `data`, else the form's fields; a body
 * that is neither (malformed JSON too) holds no `hash`.
 */
async function registerData(ctx: Ctx, limit: number): Promise<Record<string, unknown>> {
  const text = await readText(ctx, limit, Number(ctx.get('content-length') || 0));
  if (ctx.is('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    return {};
  }
  const data = body && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/** The multipart field `file`, as uploads to the API read it; a body that is no form has none (404 `body/file`). */
function uploadedFile(ctx: Ctx, limit: number) {
  if (!ctx.is('multipart/form-data')) throw apiError(404, 'Not Found', { name: 'file' });
  return readFileField(ctx.req, limit);
}

/** The answer to an upload: the document's members for the API, and a URL good for 300 s to read the file back. */
function uploaded(ctx: Ctx, service: DocserviceConfig, file: ServiceFile) {
  const url = documentUrl(service, file.key, file.hash);
  const getUrl = downloadUrl(service, file.key, ctx.state.now);
  return { getUrl, body: { data: { url, hash: file.hash, format: file.format, title: file.title }, get_url: getUrl } };
}

/**
 * The reference document service's broker-facing routes (docs/platform.md §Built-in document service): `/register`
 * then `/upload/{key}`, or `/upload` alone, by a broker's key (Basic, as the reference's clients send it); and
 * `/get/{key}` by a signed URL, to anyone holding one.
 */
export function serviceRoutes({ service, bodyLimit }: ServiceRouteDeps): MountableRoute[] {
  return [
    route({
      method: 'get',
      path: '/',
      summary: 'The service answers',
      access: 'public',
      result: 'status',
      handle: (ctx) => {
        ctx.type = 'text/plain';
        ctx.body = '';
      },
    }),
    route({
      method: 'post',
      path: '/register',
      summary: 'Registers the hash of a file to come: the URL to upload it to, and the document url it will have',
      access: 'broker',
      result: 'created',
      handle: async (ctx) => {
        const data = await registerData(ctx, bodyLimit);
        if (!('hash' in data)) throw hashRefusal(404, 'Not Found');
        const hash = checkedHash(data.hash);
        const key = await registerFile(ctx.state.session, hash);
        const uploadUrl = serviceUrl(service, 'upload', key, key);
        ctx.status = 201;
        ctx.set('Location', uploadUrl);
        ctx.body = { data: { ...data, url: documentUrl(service, key, hash) }, upload_url: uploadUrl };
      },
    }),
    route({
      method: 'post',
      path: '/upload',
      summary: 'Stores a file (multipart `file`): the document url, hash, format and title',
      access: 'broker',
      body: 'file',
      result: 'object',
      handle: async (ctx) => {
        const file = await uploadedFile(ctx, bodyLimit);
        const { getUrl, body } = uploaded(ctx, service, await storeFile(ctx.state.session, file));
        ctx.set('Location', getUrl);
        ctx.body = body;
      },
    }),
    route({
      method: 'post',
      path: '/upload/:key',
      summary: 'Stores the file registered under the key, by the signed URL /register answered',
      access: 'broker',
      body: 'file',
      result: 'object',
      handle: async (ctx) => {
        const file = await uploadedFile(ctx, bodyLimit);
        checkUploadUrl(service, new URLSearchParams(ctx.querystring), ctx.params.key);
        ctx.body = uploaded(ctx, service, await storeFile(ctx.state.session, file, ctx.params.key)).body;
      },
    }),
    route({
      method: 'get',
      path: '/get/:key',
      summary: 'The file, by a URL the service or the API signed',
      access: 'public',
      result: 'document',
      handle: async (ctx) => {
        const key = openedKey(service, new URLSearchParams(ctx.querystring), ctx.params.key, ctx.state.now);
        const found = await readFile(ctx.state.session, key);
        if (!found) throw notFound('doc_id');
        if (found === 'empty') {
          ctx.status = 204;
          return;
        }
        ctx.set('Content-Type', downloadType(found.file.format));
        ctx.set('Content-Disposition', serviceDisposition(found.file.title ?? ''));
        ctx.body = found.data;
      },
    }),
  ];
}
