import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { getRPCMetadata } from '@opentelemetry/core';
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { httpDuration, httpRequests } from '../metrics';

/**
 * The trace of this request, when tracing is on (docs/operations.md §Traces): its HTTP server span, which the HTTP
 * instrumentation leaves in the context for the Koa instrumentation to name the route on, else the active span.
 */
function requestSpan() {
  const active = context.active();
  const span = getRPCMetadata(active)?.span ?? trace.getSpan(active);
  return span && isSpanContextValid(span.spanContext()) ? span : null;
}

/**
 * Gives a request its id (an incoming `X-Request-ID` is kept and echoed) and its child logger, and with tracing on
 * names the request id on the request span and the trace id in the log lines. `requestLogs` is the parent of the
 * requests' loggers (`requestLogParent`): a child of a child is made without rebuilding pino's formatters, which a
 * child of the app's logger costs on every request. Returns when the request began, for `endRequest`.
 */
export function beginRequest(ctx: Koa.Context, requestLogs: Logger): bigint {
  const incoming = ctx.get('x-request-id');
  const requestId = /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = requestId;
  const span = requestSpan();
  span?.setAttribute('http.request.id', requestId);
  ctx.state.log = requestLogs.child(span ? { requestId, traceId: span.spanContext().traceId } : { requestId });
  ctx.set('X-Request-ID', requestId);
  return process.hrtime.bigint();
}

/** The parent of every request's logger (`beginRequest`). */
export const requestLogParent = (logger: Logger): Logger => logger.child({});

/**
 * One JSON access-log line with the broker's name — never its key or any token — and the client's address
 * (`ctx.ip`, as TRUST_PROXY allows: docs/operations.md §Behind a proxy), and the HTTP metrics.
 */
export function endRequest(ctx: Koa.Context, started: bigint): void {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const route = String(ctx._matchedRoute ?? 'unmatched');
  httpRequests.inc({ route, method: ctx.method, status: String(ctx.status) });
  httpDuration.observe({ route, method: ctx.method }, seconds);
  ctx.state.log.info(
    { method: ctx.method, route, status: ctx.status, broker: ctx.state.viewer?.account?.name ?? null, ip: ctx.ip, ms: seconds * 1e3 },
    'request',
  );
}

/** `beginRequest` and `endRequest` around the middlewares after it, for the apps whose middlewares are separate. */
export function requestLog(logger: Logger): Koa.Middleware {
  const requestLogs = requestLogParent(logger);
  return async function logRequest(ctx, next) {
    const started = beginRequest(ctx, requestLogs);
    try {
      await next();
    } finally {
      endRequest(ctx, started);
    }
  };
}
