import type Koa from 'koa';
import type { ValidationError } from 'joi';
import { StoreConflict, StoreUnavailable } from '../store/port';

export type ErrorLocation = 'body' | 'url' | 'querystring' | 'header' | '';

export interface ErrorEntry {
  location: ErrorLocation;
  name: string;
  description: unknown;
}

/** The one error type of the API; rendered as `{status: "error", errors: [...]}` by `errorRenderer`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorEntry[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof errors[0]?.description === 'string' ? errors[0].description : `HTTP ${status}`);
  }
}

/** The one error constructor: location defaults to `body`, name to `data`. */
export function apiError(
  status: number,
  description: unknown,
  { location = 'body', name = 'data' }: { location?: ErrorLocation; name?: string } = {},
): ApiError {
  return new ApiError(status, [{ location, name, description }]);
}

export const forbidden = () => apiError(403, 'Forbidden', { location: 'url', name: 'permission' });
export const notFound = (name: string) => apiError(404, 'Not Found', { location: 'url', name });
/** Also for methods the router does not know at all (TRACE…), which it would report as 501. */
export const methodNotAllowed = () => apiError(405, 'Method Not Allowed', { location: 'url', name: 'method_not_allowed' });
export const conflict = () => apiError(409, 'Conflict while updating document. Please, retry');

/** At most this many validation errors are reported, then one entry counts the rest (docs/platform.md §Limits). */
export const MAX_REPORTED_ERRORS = 100;

/**
 * Maps joi failures to the reference's shape: one entry per failing top-level field, the description a
 * list of messages for a scalar field, or a nested object/array mirroring the failing structure. Only
 * the first `MAX_REPORTED_ERRORS` failures are shaped; one last entry (`name: "errors"`) says how many
 * more there were (`unlisted`: failures counted but not in `error.details`). Linear in the failures reported: each is placed in one walk down its path.
 */
export function fromJoi(error: ValidationError, location: ErrorLocation = 'body', unlisted = 0): ApiError {
  const byField = new Map<string, unknown>();
  const reported = error.details.slice(0, MAX_REPORTED_ERRORS);
  for (const detail of reported) {
    const [head, ...rest] = detail.path;
    const name = head === undefined ? 'data' : String(head);
    byField.set(name, nest(byField.get(name), rest, detail.message));
  }
  const entries: ErrorEntry[] = [...byField].map(([name, description]) => ({ location, name, description }));
  const more = error.details.length - reported.length + unlisted;
  if (more > 0) entries.push({ location, name: 'errors', description: `${more} more error${more === 1 ? '' : 's'} not reported.` });
  return new ApiError(422, entries);
}

/** A list of messages holds strings; a list of elements holds objects and lists (never a bare string). */
const isMessages = (v: unknown): v is string[] => Array.isArray(v) && typeof v[0] === 'string';

/**
 * Builds `{a: [{b: ["msg"]}]}` style descriptions as the reference's schematics models do. The
 * structure is this call's own, so it is extended in place (copying it per failure was quadratic).
 */
function nest(existing: unknown, path: (string | number)[], message: string): unknown {
  if (path.length === 0) {
    const list = isMessages(existing) ? existing : [];
    if (!list.includes(message)) list.push(message);
    return list;
  }
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr: unknown[] = Array.isArray(existing) && !isMessages(existing) ? existing : [];
    while (arr.length <= head) arr.push({});
    arr[head] = nest(arr[head], rest, message);
    return arr;
  }
  const obj = (existing && typeof existing === 'object' && !Array.isArray(existing) ? existing : {}) as Record<string, unknown>;
  obj[head] = nest(obj[head], rest, message);
  return obj;
}

/**
 * Runs `handle` and renders every error it ends in (thrown ApiError, koa HttpError, or anything else as a logged
 * 500), and a request nothing answered as 404.
 */
export async function withErrorsRendered(ctx: Koa.Context, handle: () => Promise<unknown>): Promise<void> {
  try {
    await handle();
    if (ctx.status === 404 && ctx.body === undefined) throw notFound('not_found');
  } catch (err) {
    const apiErr = toApiError(err, ctx);
    ctx.status = apiErr.status;
    for (const [k, v] of Object.entries(apiErr.headers)) ctx.set(k, v);
    ctx.body = { status: 'error', errors: apiErr.errors };
  }
}

/** `withErrorsRendered` around the middlewares after it, for the apps whose middlewares are separate. */
export function errorRenderer(): Koa.Middleware {
  return function renderErrors(ctx, next) {
    return withErrorsRendered(ctx, next);
  };
}

/**
 * Every error becomes the API's: the store's own errors as the reference answers them (a lost race or an existing
 * id 409, docs/platform.md §Conflicts; an unreachable store 503), a koa HttpError as its status, anything else a
 * logged 500. The domain and the jobs throw and recognise the store's errors without knowing HTTP.
 */
function toApiError(err: unknown, ctx: Koa.Context): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreConflict) return err.reason === 'revision' ? conflict() : apiError(409, 'Document already exists');
  if (err instanceof StoreUnavailable) return apiError(503, storeUnavailable(err), { location: 'url', name: 'store' });
  const e = err as { status?: number; expose?: boolean; message?: string };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    const title = statusTitle(e.status);
    return apiError(e.status, title, { location: 'url', name: title.toLowerCase().replace(/ /g, '_') });
  }
  ctx.state.log?.error({ err }, 'unhandled error');
  return apiError(500, 'Internal Server Error', { location: 'url', name: 'internal_server_error' });
}

/**
 * A 503 of the store says whether the write was made: "Service Unavailable" alone means it was not, so the same
 * request may be sent again; otherwise the object must be read first (docs/cluster.md §Outcome unknown).
 */
const storeUnavailable = (err: StoreUnavailable): string =>
  err.outcomeUnknown
    ? 'Service Unavailable: the store did not confirm whether the change was made; read the object before sending it again'
    : 'Service Unavailable';

function statusTitle(status: number): string {
  return (
    {
      400: 'Bad Request',
      404: 'Not Found',
      405: 'Method Not Allowed',
      406: 'Not Acceptable',
      413: 'Payload Too Large',
      415: 'Unsupported Media Type',
      429: 'Too Many Requests',
    }[status] ?? 'Bad Request'
  );
}
