import { tracingOptions } from './config';
import type { Tracing } from './tracing';

/**
 * The first import of src/main.ts: the compiled node is CommonJS, so modules load in import order and the SDK's
 * hooks on `require` see http, koa, mongodb and ioredis load after it (docs/operations.md §Traces). Null when
 * tracing is not configured; the SDK is then not even loaded (its modules cost about 0.6 s of CPU at start).
 */
const options = tracingOptions(process.env);
export const tracing: Tracing | null = options
  ? // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('./tracing') as typeof import('./tracing')).startTracing(options)
  : null;
