import type Koa from 'koa';
import type { Clock } from '../time/clock';

/** Reads the clock once per request into `ctx.state.now` (docs/platform.md §Time and dates). */
export function requestClock(clock: Clock): Koa.Middleware {
  return async function stampNow(ctx, next) {
    ctx.state.now = clock.now();
    await next();
  };
}
