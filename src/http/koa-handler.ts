import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';

/**
 * Koa's request listener for `http.createServer`. Koa settles every request itself (a failure goes to
 * `ctx.onerror` and becomes a response), so the promise its handler returns is dropped on purpose.
 */
export function koaHandler(app: Pick<Koa<any, any>, 'callback'>): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = app.callback();
  return (req, res) => void handle(req, res);
}
