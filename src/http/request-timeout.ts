import type Koa from 'koa';
import { apiError } from './errors';

/**
 * Runs `handle`, answering 503 when it takes longer than `timeoutMs` (0 = no limit), so a slow or stuck store gives
 * clients a clear error instead of a hang. The handler is not cancelled: a write it commits after the 503 stays
 * committed, which is why the answer is 503 (outcome unknown, read back before retrying).
 */
export async function withinTime(timeoutMs: number, handle: () => Promise<unknown>): Promise<void> {
  if (timeoutMs <= 0) {
    await handle();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(apiError(503, `Request took longer than ${timeoutMs} ms`, { location: 'url', name: 'timeout' })),
      timeoutMs,
    );
  });
  const handled = handle();
  // A handler that fails after the 503 was sent must not become an unhandled rejection.
  handled.catch(() => undefined);
  try {
    await Promise.race([handled, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** `withinTime` around the middlewares after it, for the apps whose middlewares are separate. */
export function requestTimeout(timeoutMs: number): Koa.Middleware {
  return function limitRequestTime(_ctx, next) {
    return withinTime(timeoutMs, next);
  };
}
