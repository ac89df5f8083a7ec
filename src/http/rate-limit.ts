import type Koa from 'koa';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RequestState } from './context';
import { apiError } from './errors';

/**
 * Per-key request limits: `perMinute` requests per API key; anonymous readers, and requests with an unknown key,
 * are counted per client address (`ctx.ip`: the socket's peer, or what trusted proxies report, client-address.ts).
 * With a Redis client every node shares one count; without, each process counts alone. If Redis cannot
 * answer, the request is served: the limit protects the registry and must not become a way to take it down.
 * Resolves when the request may go on; a request over the limit is a 429.
 */
export function rateLimit(perMinute: number, redis: Redis | null): (ctx: Koa.ParameterizedContext<RequestState>) => Promise<void> {
  const options = { points: perMinute, duration: 60, keyPrefix: 'registry:rate' };
  const limiter: RateLimiterAbstract = redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options);
  return async function limitRequestRate(ctx) {
    const account = ctx.state.viewer?.account;
    const key = account ? `key:${account.name}` : `ip:${ctx.ip}`;
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const error = apiError(429, 'Too Many Requests', { location: 'header', name: 'Authorization' });
        error.headers['Retry-After'] = String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        throw error;
      }
      ctx.state.log?.warn({ err: rejection }, 'rate limiter unavailable; request served without a limit');
    }
  };
}
