import { tracingOptions } from './config';
import { startTracing, type Tracing } from './tracing';

/**
 * The first import of src/main.ts: the compiled node is CommonJS, so modules load in import order and the SDK's
 * hooks on `require` see http, koa, mongodb and ioredis load after it (docs/operations.md §Traces). Null when
 * tracing is not configured.
 */
const options = tracingOptions(process.env);
export const tracing: Tracing | null = options ? startTracing(options) : null;
