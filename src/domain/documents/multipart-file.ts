import busboy, { type Busboy } from 'busboy';
import type { IncomingMessage } from 'node:http';
import { ApiError, apiError } from '../../http/errors';

export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** Bytes a form may carry besides its file: part headers, boundaries, small fields (docs/platform.md §Documents and uploads). */
export const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Parts of a form; the upload form has one (`file`), a few more are tolerated and ignored. */
const MAX_PARTS = 16;

/** A refused upload closes its connection: the rest of a hostile body is not read. */
const refused = (status: number, description: string, location: 'body' | 'header' = 'body', name = 'file') =>
  new ApiError(status, apiError(status, description, { location, name }).errors, { Connection: 'close' });

/**
 * The `file` field of a multipart request (the reference's upload form); 404 body/file when absent. The file
 * may hold up to `limit` bytes, the whole body `limit + FORM_OVERHEAD_BYTES`; a body that is not a complete
 * form answers 422 (docs/platform.md §Documents and uploads). Every stream here has an error listener: an
 * unhandled `error` on busboy's file stream would end the process.
 */
export function readFileField(req: IncomingMessage, limit: number): Promise<UploadedFile> {
  let parser: Busboy;
  try {
    // Browsers and clients send UTF-8 file names (Cyrillic titles); busboy reads latin1 unless told.
    // busboy counts a file that reaches `fileSize` as over it: one more byte makes `limit` itself fit.
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { fileSize: limit + 1, parts: MAX_PARTS, fieldSize: FORM_OVERHEAD_BYTES },
    });
  } catch {
    // busboy's constructor throws on a multipart type without a usable boundary.
    return Promise.reject(refused(422, 'Content-Type multipart/form-data needs a boundary', 'header', 'Content-Type'));
  }
  return new Promise((resolve, reject) => {
    let found: UploadedFile | null = null;
    let settled = false;
    let received = 0;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.off('data', count);
      // Not from inside busboy's own event handlers: it still writes to its file stream after emitting `limit`.
      setImmediate(() => parser.destroy());
      // The remainder is read and dropped, so the answer reaches the client; Connection: close ends it.
      req.resume();
      reject(error);
    };
    const tooLarge = () => fail(refused(413, `File exceeds the limit of ${limit} bytes`));
    const unreadable = () => fail(refused(422, 'Could not read the multipart body'));
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit + FORM_OVERHEAD_BYTES) tooLarge();
    };
    let taken = false;
    parser.on('file', (name, stream, info) => {
      stream.on('error', unreadable);
      // The first part named `file` is the upload; any other file part is read and dropped.
      if (name !== 'file' || taken) {
        stream.resume();
        return;
      }
      taken = true;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', tooLarge);
      stream.on('end', () => {
        found = { filename: info.filename ?? 'file', mimeType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('error', unreadable);
    parser.on('close', () => {
      if (settled) return;
      if (!found) return fail(apiError(404, 'Not Found', { name: 'file' }));
      settled = true;
      resolve(found);
    });
    req.on('error', unreadable);
    req.on('data', count);
    req.pipe(parser);
  });
}
