import type Koa from 'koa';
import type { Ctx } from './context';

/** `?opt_pretty=1` renders JSON with an indent of 4, as the reference's pretty renderer. */
export function prettyJson(): Koa.Middleware {
  return async function renderPretty(ctx, next) {
    await next();
    const pretty = ctx.query.opt_pretty;
    if (pretty && pretty !== '0' && ctx.body && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body)) {
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(ctx.body, null, 4);
    }
  };
}

/** Absolute URL of an API path, on PUBLIC_BASE_URL when configured, else on the request's own origin. */
export function absoluteUrl(ctx: Ctx, publicBaseUrl: string | null, path: string): string {
  // Koa 3's ctx.origin is the Origin request header, not the server's own origin.
  return `${publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`}${path}`;
}

/** 201 with `Location` and the body. */
export function created(ctx: Ctx, location: string, body: unknown): void {
  ctx.status = 201;
  ctx.set('Location', location);
  ctx.body = body;
}
