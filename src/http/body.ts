import type Koa from 'koa';
import getRawBody from 'raw-body';
import { apiError } from './errors';
import { scanJson } from './json-scan';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/**
 * Bounds of a JSON body's shape, checked on its text before `JSON.parse` builds it (docs/platform.md §Limits):
 * building and then walking hundreds of thousands of objects held the event loop 200 ms for one 1 MB body.
 * No document of the API nests this deep; deeper input only costs validation time.
 */
export const MAX_DEPTH = 32;
/**
 * The largest body of the API, a tender whose every list is at its bound (`LIST_LIMITS`: 1000 items of 8 objects
 * and arrays each, 100 features of 100 values, 100 lots, milestones and funders of a few each), is 1 MB and holds
 * 18,400 objects and arrays (test/unit/http/body.test.ts builds it); 340,000 `{}` fit in as much text.
 */
export const MAX_CONTAINERS = 50_000;
/**
 * The widest object of the API, a tender, has 32 members; 85,000 unknown ones fit in 1 MB. Counted per object, not
 * in all: the largest tender above has 56,000 members in all, too near the 85,000 for a bound between them.
 */
export const MAX_OBJECT_MEMBERS = 1000;
/**
 * The longest list of the API holds 1000 elements (`items`, `documents`); a longer one up to this bound is still
 * refused with the list's own text. 520,000 numbers fit in 1 MB.
 */
export const MAX_ARRAY_ELEMENTS = 10_000;

/**
 * POSTs the reference routes by a member of their body (`procurementMethodType`, `frameworkType`…): it reads the
 * body before it checks the content type (docs/platform.md §Request bodies).
 */
const BODY_DISPATCHED = /\/(?:tenders|frameworks|submissions|qualifications|agreements)$/;

/**
 * Parses JSON request bodies into `ctx.state.body` with the reference's errors: 415 for another content
 * type, 422 with a Python-json-like text for malformed JSON, 413 over the size limit. Multipart bodies are
 * left to the routes that accept files.
 */
export async function readJsonBody(ctx: Koa.Context, limit: number): Promise<void> {
  if (!WITH_BODY.has(ctx.method) || ctx.is('multipart/form-data')) return;
  const length = Number(ctx.get('content-length') || 0);
  if (length === 0 && !ctx.get('transfer-encoding')) {
    ctx.state.body = undefined;
    return;
  }
  if (!ctx.is('application/json', 'application/*+json')) {
    if (ctx.method === 'POST' && BODY_DISPATCHED.test(ctx.path)) {
      ctx.state.body = parseJson(await readText(ctx, limit, length));
      bodyData(ctx);
    }
    throw apiError(415, "Content-Type header should be one of ['application/json']", {
      location: 'header',
      name: 'Content-Type',
    });
  }
  ctx.state.body = parseJson(await readText(ctx, limit, length));
}

/** The body's text, up to `limit` bytes (413 beyond), `length` the declared one (0: unknown). */
export async function readText(ctx: Koa.Context, limit: number, length: number): Promise<string> {
  try {
    return await getRawBody(ctx.req, { limit, length: length || undefined, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') {
      throw apiError(413, `Request body exceeds the limit of ${limit} bytes`);
    }
    throw apiError(400, 'Request body could not be read');
  }
}

/** A body over a bound of its shape is refused unparsed; malformed JSON is left for `JSON.parse` to word. */
export function parseJson(text: string): unknown {
  const shape = scanJson(text);
  if (shape && shape.depth > MAX_DEPTH) throw apiError(422, `JSON nested deeper than ${MAX_DEPTH} levels`);
  if (shape && shape.containers > MAX_CONTAINERS) throw apiError(422, `JSON with more than ${MAX_CONTAINERS} objects and arrays`);
  if (shape && shape.longestArray > MAX_ARRAY_ELEMENTS) throw apiError(422, `JSON array with more than ${MAX_ARRAY_ELEMENTS} elements`);
  if (shape && shape.widestObject > MAX_OBJECT_MEMBERS) throw apiError(422, `JSON object with more than ${MAX_OBJECT_MEMBERS} members`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw apiError(422, pythonStyleMessage(text, (err as Error).message));
  }
}

/** The reference answers with simplejson's text (`Expecting value: line 1 column 1 (char 0)`). */
function pythonStyleMessage(text: string, jsMessage: string): string {
  const match = /position (\d+)/.exec(jsMessage);
  // No position in V8's text when the first character starts no JSON value at all (a form body: `data=1`).
  const first = text.search(/\S/);
  const pos = match ? Number(match[1]) : first === -1 ? 0 : /[{["\d\-tfn]/.test(text[first]) ? text.length : first;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  const expected =
    text[pos] === "'" || (before.trimEnd().endsWith('{') && text[pos] !== '"')
      ? 'Expecting property name enclosed in double quotes'
      : 'Expecting value';
  return `${expected}: line ${line} column ${column} (char ${pos})`;
}

/**
 * The `data` member of a JSON body, which every modifying endpoint requires to be an object. A PATCH may carry
 * the `id` of the object its URL names (the route's last parameter), as the reference's client sends the object
 * it holds: that `id` is dropped here; any other `id` stays in and is refused by the schema
 * (docs/platform.md §PATCH bodies).
 */
export function bodyData(ctx: Koa.Context): Record<string, unknown> {
  const body = ctx.state.body as { data?: unknown } | undefined;
  const data = body && typeof body === 'object' && !Array.isArray(body) ? body.data : undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw apiError(422, 'Data not available');
  return ctx.method === 'PATCH' ? withoutOwnId(data as Record<string, unknown>, ctx.params) : (data as Record<string, unknown>);
}

function withoutOwnId(data: Record<string, unknown>, params: Record<string, string> | undefined): Record<string, unknown> {
  if (!('id' in data) || !params) return data;
  const urlIds = Object.values(params);
  if (data.id !== urlIds[urlIds.length - 1]) return data;
  const { id: _ownId, ...rest } = data;
  return rest;
}

/** The optional `config` member of a JSON body. */
export function bodyConfig(ctx: Koa.Context): Record<string, unknown> | undefined {
  const config = (ctx.state.body as { config?: unknown } | undefined)?.config;
  if (config === undefined) return undefined;
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    throw apiError(422, ['Please use a mapping for this field.'], { name: 'config' });
  }
  return config as Record<string, unknown>;
}
