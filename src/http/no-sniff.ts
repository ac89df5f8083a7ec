import type Koa from 'koa';

/**
 * `X-Content-Type-Options: nosniff` on every response, errors included: a browser must take each answer as the
 * type it is sent with (docs/platform.md §Documents and uploads).
 */
export function noSniff(): Koa.Middleware {
  return async function setNoSniff(ctx, next) {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
