import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiError } from './errors';

/**
 * Requests Node's HTTP parser refuses before the app sees them (headers over its 16 KB limit, a malformed
 * request line) get the API's error body instead of Node's empty one.
 */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const error =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? apiError(431, 'Request header fields too large', { location: 'header', name: 'headers' })
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? apiError(408, 'Request timeout', { location: 'url', name: 'timeout' })
          : apiError(400, 'Bad Request', { location: 'url', name: 'bad_request' });
    const body = JSON.stringify({ status: 'error', errors: error.errors });
    socket.end(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
