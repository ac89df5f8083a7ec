import type Koa from 'koa';

/**
 * `X-Content-Type-Options: nosniff` on every response, errors included: a browser must take each answer as the
 * type it is sent with (docs/platform.md §Documents and uploads).
 */
export function setNoSniff(ctx: Koa.Context): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
}

/** `setNoSniff` for the apps whose middlewares are separate (the API's own runs it in its request frame). */
export function noSniff(): Koa.Middleware {
  return async function noSniffHeader(ctx, next) {
    setNoSniff(ctx);
    await next();
  };
}
