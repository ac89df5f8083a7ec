import type Koa from 'koa';
import type { Config } from '../../config';
import type { RequestState } from '../../http/context';
import { apiError } from '../../http/errors';

/**
 * The accelerator field (`procurementMethodDetails` of tenders, `frameworkDetails` of frameworks) exists only on a
 * SANDBOX_MODE node; elsewhere it is the reference's `Rogue field`, so a production registry never stores one and
 * `accelerationOf` can trust any stored value (src/time/acceleration.ts).
 */
export function refuseSandboxField(field: string, config: Pick<Config, 'sandboxMode'>, body: unknown): void {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!config.sandboxMode && data && typeof data === 'object' && field in data) {
    throw apiError(422, 'Rogue field', { name: field });
  }
}

/** `refuseSandboxField` as a middleware, ahead of a router's own handler. */
export function refuseSandboxDetails(field: string, config: Pick<Config, 'sandboxMode'>): Koa.Middleware<RequestState> {
  return async function sandboxDetailsOnlyInSandbox(ctx, next) {
    refuseSandboxField(field, config, ctx.state.body);
    await next();
  };
}
