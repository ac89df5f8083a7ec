import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { httpDuration, httpRequests } from '../metrics';

/**
 * Gives each request an id (an incoming `X-Request-ID` is kept and echoed), a child logger, and one JSON
 * access-log line with the broker's name — never its key or any token — and the client's address (`ctx.ip`, as
 * TRUST_PROXY allows: docs/operations.md §Behind a proxy), and the HTTP metrics.
 */
export function requestLog(logger: Logger): Koa.Middleware {
  return async function logRequest(ctx, next) {
    const incoming = ctx.get('x-request-id');
    const requestId = /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-ID', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = String(ctx._matchedRoute ?? 'unmatched');
      httpRequests.inc({ route, method: ctx.method, status: String(ctx.status) });
      httpDuration.observe({ route, method: ctx.method }, seconds);
      ctx.state.log.info(
        { method: ctx.method, route, status: ctx.status, broker: ctx.state.viewer?.account?.name ?? null, ip: ctx.ip, ms: seconds * 1e3 },
        'request',
      );
    }
  };
}
