import busboy from 'busboy';
import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';

export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** The `file` field of a multipart request (the reference's upload form); 404 body/file when absent. */
export function readFileField(ctx: Ctx, limit: number): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    let found: UploadedFile | null = null;
    let tooLarge = false;
    // Browsers and clients send UTF-8 file names (Cyrillic titles); busboy reads latin1 unless told.
    const parser = busboy({ headers: ctx.req.headers, defParamCharset: 'utf8', limits: { fileSize: limit, files: 1 } });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        tooLarge = true;
      });
      stream.on('end', () => {
        if (name === 'file') found = { filename: info.filename ?? 'file', mimeType: info.mimeType, data: Buffer.concat(chunks) };
      });
    });
    parser.on('error', () => reject(apiError(422, 'Could not read the multipart body', { name: 'file' })));
    parser.on('close', () => {
      if (tooLarge) return reject(apiError(413, `Request body exceeds the limit of ${limit} bytes`));
      if (!found) return reject(apiError(404, 'Not Found', { name: 'file' }));
      resolve(found);
    });
    ctx.req.pipe(parser);
  });
}
