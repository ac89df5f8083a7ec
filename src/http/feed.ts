import Router from '@koa/router';
import type { Viewer } from './auth';
import type { Ctx, RequestState } from './context';
import { apiError } from './errors';
import { absoluteUrl } from './render';
import type { Doc, FeedQuery, Kind, Stored } from '../store/port';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
const DEFAULT_FIELDS = ['id', 'dateModified'];

/** How one collection shows in its feed. */
export interface FeedSource {
  kind: Kind;
  /** Fields a client may add with `opt_fields` (others are ignored, as the reference). */
  allowedFields: readonly string[];
  /**
   * The entry as this viewer may see it. `data` is the (masked) object from which `opt_fields` are picked;
   * a `fixed` entry (restricted objects reduced to `id, dateModified, frameworkID, restricted`) is listed as is.
   */
  entry(stored: Stored, viewer: Viewer): { data: Doc; fixed?: boolean };
  /**
   * The `data` fields `entry` reads besides the listed ones, when it reads nothing else of the stored doc but
   * `config`. Declaring it lets the store hand over only those fields; a source without it gets whole docs.
   */
  entryReads?: readonly string[];
}

interface FeedParams {
  query: FeedQuery;
  fields: string[];
  /** Parameters echoed into page links, in the reference's order. */
  echo: [string, string][];
  offsetGiven: boolean;
}

export function parseFeedParams(kind: Kind, q: Record<string, string | string[] | undefined>, allowed: readonly string[]): FeedParams {
  const one = (name: string) => {
    const v = q[name];
    return Array.isArray(v) ? v[v.length - 1] : v;
  };
  const rawOffset = one('offset');
  let offset: number | undefined;
  if (rawOffset !== undefined && rawOffset !== '') {
    offset = Number(rawOffset);
    if (!/^\d+(\.\d+)?$/.test(rawOffset) || !Number.isFinite(offset)) {
      throw apiError(404, `Invalid offset provided: ${rawOffset}`, { location: 'querystring', name: 'offset' });
    }
  }
  const rawLimit = one('limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    if (!/^\s*[-+]?\d+\s*$/.test(rawLimit)) {
      throw apiError(400, `invalid literal for int() with base 10: '${rawLimit}'`, { location: 'querystring', name: 'limit' });
    }
    limit = Math.min(Math.max(Number(rawLimit), 1), MAX_LIMIT);
  }
  const descending = !!one('descending');
  const rawMode = one('mode');
  const mode = rawMode === 'test' ? 'test' : rawMode === '_all_' ? 'all' : 'live';
  const fields = [...new Set((one('opt_fields') ?? '').split(',').map((f) => f.trim()))]
    .filter((f) => allowed.includes(f) && !DEFAULT_FIELDS.includes(f))
    .sort();

  const echo: [string, string][] = [];
  if (rawMode) echo.push(['mode', rawMode]);
  if (rawLimit !== undefined) echo.push(['limit', String(limit)]);
  if (descending) echo.push(['descending', '1']);
  if (fields.length) echo.push(['opt_fields', fields.join(',')]);
  return { query: { kind, offset, descending, limit, mode }, fields, echo, offsetGiven: offset !== undefined };
}

function pageLink(ctx: Ctx, base: string | null, echo: [string, string][], offset: number, descending: boolean) {
  const params = echo.filter(([k]) => k !== 'descending');
  if (descending) params.push(['descending', '1']);
  params.push(['offset', String(offset)]);
  const path = `${ctx.path}?${new URLSearchParams(params).toString()}`;
  return { offset, path, uri: absoluteUrl(ctx, base, path) };
}

const pick = (data: Doc, fields: string[]) => {
  const out: Doc = {};
  for (const f of [...DEFAULT_FIELDS, ...fields]) if (data[f] !== undefined) out[f] = data[f];
  return out;
};

/**
 * The one feed engine. Pages are ordered by the store's commit sequence, and `offset` is the sequence of the
 * last listed entry: a JSON number, as the spec shows, and strictly crawler-safe because every commit gets a
 * unique, increasing sequence — a crawler that follows `next_page` sees every change (at its latest state).
 */
export function feedRoute(router: Router<RequestState>, path: string, source: FeedSource, publicBaseUrl: string | null) {
  router.get(path, async (ctx) => {
    const params = parseFeedParams(source.kind, ctx.query, source.allowedFields);
    const fields = source.entryReads && [...new Set([...DEFAULT_FIELDS, ...params.fields, ...source.entryReads])];
    const items = await ctx.state.session.feed({ ...params.query, fields });
    const viewer = ctx.state.viewer;
    const data = items.map((stored) => {
      const entry = source.entry(stored, viewer);
      return entry.fixed ? entry.data : pick(entry.data, params.fields);
    });
    const { offset, descending } = params.query;
    const first = items[0]?.seq;
    const last = items[items.length - 1]?.seq;
    const body: Doc = {
      data,
      next_page: pageLink(ctx, publicBaseUrl, params.echo, last ?? offset ?? 0, descending),
    };
    if (params.offsetGiven || descending) {
      body.prev_page = pageLink(ctx, publicBaseUrl, params.echo, first ?? offset ?? 0, !descending);
    }
    ctx.body = body;
  });
}
