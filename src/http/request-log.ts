import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

/**
 * Gives each request an id (an incoming `X-Request-ID` is kept and echoed), a child logger, and one JSON
 * access-log line with the broker's name — never its key or any token.
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
      ctx.state.log.info(
        {
          method: ctx.method,
          route: ctx._matchedRoute ?? null,
          status: ctx.status,
          broker: ctx.state.viewer?.account?.name ?? null,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    }
  };
}
