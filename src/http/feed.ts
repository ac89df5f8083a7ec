import { Readable } from 'node:stream';
import type { Account, Viewer } from './auth';
import type { Ctx } from './context';
import { apiError } from './errors';
import { offsetEcho, parseFeedOffset } from './feed-offset';
import { pageParts, previousOffset, storeOffset, type PageEnd } from './feed-page';
import { ReadSize } from './feed-read-size';
import { streamFeed, wantsEventStream } from './feed-stream';
import type { StreamRender } from './live-feeds';
import { absoluteUrl, prettyIndent } from './render';
import { route, type MountableRoute } from './route';
import { pickFields } from '../store/listing';
import type { FeedQuery, Kind, StoreSession, StoredDoc } from '../store/port';
import { apiJson } from '../store/api-json';
import { wantsOcds } from '../ocds/ocds-option';
import { REGISTRY_PUBLISHER, eachRelease, releasePackageJson } from '../ocds/release-package';
import type { OcdsObject, ReleasesOf } from '../ocds/parts';
import { PART_BYTES, SplicedJson, sendSpliced, yieldLoop } from './spliced-json';
import { formatKyiv } from '../time/kyiv';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
const DEFAULT_FIELDS = ['id', 'dateModified'];

/** How one collection shows in its feed. */
export interface FeedSource {
  kind: Kind;
  /** Fields a client may add with `opt_fields` (others are ignored, as the reference). */
  allowedFields: readonly string[];
  /**
   * The entry of a stored doc as this viewer may see it. `data` is the (masked) object from which `opt_fields`
   * are picked; a `fixed` entry (restricted objects reduced to `id, dateModified, frameworkID, restricted`) is
   * listed as is.
   */
  entry(doc: StoredDoc, viewer: Viewer): { data: StoredDoc; fixed?: boolean };
  /**
   * The `data` fields `entry` reads besides the listed ones. Declaring it promises that `entry` reads nothing
   * else of the doc but `config.restricted`, and that it shows the data of an object whose `config.restricted`
   * is unset as it is: the store then hands over such entries as JSON ready to send (`feedListing`) and only
   * restricted objects as docs. A source without it gets whole docs.
   */
  entryReads?: readonly string[];
  /** The fields every entry lists, in this order (`id, dateModified` unless given). */
  defaultFields?: readonly string[];
  /**
   * The maker of the OCDS releases of the listed entries' data, one entry at a time, in feed order: a page asked
   * with `opt_schema=ocds` is a release package of them (docs/ocds.md §Feeds). A source without it ignores
   * `opt_schema`.
   */
  releasesOf?: (entries: StoredDoc[], session: StoreSession) => Promise<ReleasesOf>;
}

/**
 * Narrows a feed to one framework's objects (`/frameworks/{id}/submissions`). Its page links name `linkPath`,
 * the unfiltered feed, as the reference's do (docs/frameworks.md §Framework feeds: `listing_name` is the parent route's).
 */
export interface FrameworkScope {
  frameworkID(ctx: Ctx): string;
  linkPath: string;
}

interface FeedParams {
  query: FeedQuery;
  /** The requested `opt_fields` that are allowed and not listed anyway, sorted. */
  fields: string[];
  /** What each entry lists: the default fields, then `fields`. */
  listed: string[];
  /** Parameters echoed into page links, in the reference's order. */
  echo: [string, string][];
  /** The client's `offset` as it came, when it gave one. */
  rawOffset?: string;
}

export function parseFeedParams(
  kind: Kind,
  q: Record<string, string | string[] | undefined>,
  allowed: readonly string[],
  defaults: readonly string[] = DEFAULT_FIELDS,
): FeedParams {
  const one = (name: string) => {
    const v = q[name];
    return Array.isArray(v) ? v[v.length - 1] : v;
  };
  const descending = !!one('descending');
  const rawOffset = one('offset');
  let offset: number | undefined;
  if (rawOffset !== undefined && rawOffset !== '') {
    const parsed = parseFeedOffset(rawOffset, descending);
    if (parsed === null) {
      throw apiError(404, `Invalid offset provided: ${rawOffset}`, { location: 'querystring', name: 'offset' });
    }
    offset = storeOffset(parsed, descending);
  }
  const rawLimit = one('limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== undefined) {
    if (!/^\s*[-+]?\d+\s*$/.test(rawLimit)) {
      throw apiError(400, `invalid literal for int() with base 10: '${rawLimit}'`, { location: 'querystring', name: 'limit' });
    }
    limit = Math.min(Math.max(Number(rawLimit), 1), MAX_LIMIT);
  }
  const rawMode = one('mode');
  const mode = rawMode === 'test' ? 'test' : rawMode === '_all_' ? 'all' : 'live';
  const fields = [...new Set((one('opt_fields') ?? '').split(',').map((f) => f.trim()))]
    .filter((f) => allowed.includes(f) && !defaults.includes(f))
    .sort();

  const echo: [string, string][] = [];
  if (rawMode) echo.push(['mode', rawMode]);
  if (rawLimit !== undefined) echo.push(['limit', String(limit)]);
  if (descending) echo.push(['descending', '1']);
  if (fields.length) echo.push(['opt_fields', fields.join(',')]);
  return {
    query: { kind, offset, descending, limit, mode },
    fields,
    listed: [...defaults, ...fields],
    echo,
    rawOffset: offset === undefined ? undefined : rawOffset,
  };
}

/** A page link; `""` for an offset is a first page's that lists nothing, whose link has no `offset` (docs/platform.md §Feeds). */
function pageLink(ctx: Ctx, base: string | null, linkPath: string, echo: [string, string][], offset: number | string, descending: boolean) {
  const params = echo.filter(([k]) => k !== 'descending');
  if (descending) params.push(['descending', '1']);
  if (offset !== '') params.push(['offset', String(offset)]);
  const query = new URLSearchParams(params).toString();
  const path = query ? `${linkPath}?${query}` : linkPath;
  return { offset, path, uri: absoluteUrl(ctx, base, path) };
}

/** An entry's JSON as `viewer` is shown it. */
function entryJsonOf(source: FeedSource, listed: readonly string[], viewer: Viewer) {
  return (doc: StoredDoc) => {
    const entry = source.entry(doc, viewer);
    return Buffer.from(apiJson(entry.fixed ? entry.data : pickFields(entry.data, listed)));
  };
}

/**
 * Restricted entries as rendered for each account (`null`: no key), by the doc the store lists. A kept entry's doc is
 * frozen and shared (src/store/port.ts `Listing`) and belongs to one feed and set of fields, so a page read again
 * renders each restricted entry once per account; it goes with the doc once the store no longer keeps it.
 */
const renderedEntries = new WeakMap<StoredDoc, Map<Account | null, Buffer>>();

/** `entryJson` of a listed doc, rendered once per account while the store keeps it shared. */
function renderedOnce(doc: StoredDoc, viewer: Viewer, entryJson: (doc: StoredDoc) => Buffer): Buffer {
  if (!Object.isFrozen(doc)) return entryJson(doc);
  let byAccount = renderedEntries.get(doc);
  if (!byAccount) renderedEntries.set(doc, (byAccount = new Map()));
  let json = byAccount.get(viewer.account);
  if (!json) byAccount.set(viewer.account, (json = entryJson(doc)));
  return json;
}

const sourceIds = new WeakMap<FeedSource, number>();
let sourceCount = 0;

/**
 * A live stream's entries (docs/platform.md §Live feed), rendered once for all streams that list them alike: an
 * object that is not restricted shows alike to every reader of a source that declares `entryReads` (its promise).
 */
function streamRender(source: FeedSource, listed: readonly string[], viewer: Viewer): StreamRender {
  if (!sourceIds.has(source)) sourceIds.set(source, ++sourceCount);
  const shared = `${sourceIds.get(source)}|${listed.join(',')}`;
  const { account } = viewer;
  const own = `${shared}|${account ? `${account.group}/${account.name}/${account.levels}` : ''}`;
  const json = entryJsonOf(source, listed, viewer);
  return {
    key: (stored) => (source.entryReads && !stored.doc.config?.restricted ? shared : own),
    json: (stored) => json(stored.doc),
  };
}

/** Bytes of entries a feed page reads from the store at once (docs/platform.md §Limits). */
export const PAGE_READ_BYTES = 1024 * 1024;
/**
 * The largest entry of the last part read of each feed and set of fields: where the next page's parts start. Sets of
 * fields are many; past `KNOWN_SIZES` the sizes are forgotten and learnt again.
 */
const largestEntries = new Map<string, number>();
const KNOWN_SIZES = 1000;

function rememberSize(key: string, size: ReadSize) {
  if (largestEntries.size >= KNOWN_SIZES && !largestEntries.has(key)) largestEntries.clear();
  largestEntries.set(key, size.largestEntry);
}

/**
 * The page's entries as JSON, in feed order, read a part at a time (`pageParts`): the first part, read before the
 * answer starts (a failing store is still an error status), and the rest, read as the body is sent.
 */
async function pageEntries(ctx: Ctx, source: FeedSource, params: FeedParams) {
  const { viewer, session } = ctx.state;
  const { listed, query } = params;
  const entryJson = entryJsonOf(source, listed, viewer);
  const key = `${query.kind}|${listed.join(',')}`;
  const size = new ReadSize(PAGE_READ_BYTES, MAX_LIMIT, largestEntries.get(key));
  // Each read tells the next how many entries to ask for: a cold feed's first read is of one entry, and the rest of
  // its tick would otherwise be read an entry at a time, a round trip each on MongoDB.
  const read = async (part: FeedQuery) => {
    const entries = source.entryReads
      ? (await session.feedListing({ ...part, listed, reads: source.entryReads })).map((listing) => ({
          seq: listing.seq,
          json: 'json' in listing ? listing.json : renderedOnce(listing.doc, viewer, entryJson),
        }))
      : (await session.feed(part)).map((stored) => ({ seq: stored.seq, json: entryJson(stored.doc) }));
    size.saw(entries.map((entry) => entry.json.length));
    return entries;
  };
  const end: PageEnd & { first?: number } = {};
  const parts = pageParts(
    query,
    read,
    (bound) => session.sealedBelow(query.kind, bound),
    () => size.entries,
    end,
  );
  async function* measured(): AsyncGenerator<Buffer[]> {
    for await (const part of parts) {
      end.first ??= part[0].seq;
      const entries = part.map((entry) => entry.json);
      rememberSize(key, size);
      yield entries;
    }
  }
  const rest = measured();
  const first = await rest.next();
  const firstPart = first.done ? [] : first.value;
  return { firstPart, first: end.first, rest, end };
}

/**
 * The releases of an OCDS feed page (docs/ocds.md §Feeds): the entries the page lists, read a part at a time as
 * `pageEntries` reads them, each part about `PAGE_READ_BYTES` of releases (an entry's size here: the bytes its
 * releases take in `json`), each part's entries masked and their releases written one at a time
 * (docs/platform.md §Limits). `end` learns where the page starts and where the next one does.
 */
async function* ocdsReleases(
  ctx: Ctx,
  source: FeedSource,
  releasesOf: NonNullable<FeedSource['releasesOf']>,
  query: FeedQuery,
  json: SplicedJson,
  end: PageEnd & { first?: number },
): AsyncGenerator<OcdsObject> {
  const { session, viewer } = ctx.state;
  const key = `${query.kind}|opt_schema=ocds`;
  const size = new ReadSize(PAGE_READ_BYTES, MAX_LIMIT, largestEntries.get(key));
  const read = (part: FeedQuery) => session.feed(part);
  const sealedBelow = (bound: number) => session.sealedBelow(query.kind, bound);
  for await (const part of pageParts(query, read, sealedBelow, () => size.entries, end)) {
    end.first ??= part[0].seq;
    const views = part.map((stored) => source.entry(stored.doc, viewer).data);
    const releasesOfView = await releasesOf(views, session);
    const sizes: number[] = [];
    for (const view of views) {
      const before = json.rendered;
      yield* eachRelease([view], releasesOfView);
      sizes.push(json.rendered - before);
    }
    size.saw(sizes);
    rememberSize(key, size);
  }
}

/** A page's JSON around its entries, as the whole page rendered with `indent` shows it. */
function pageShape(indent: number | undefined) {
  const pretty = indent === undefined ? undefined : new SplicedJson(indent);
  const shape = apiJson({ data: [0] }, indent);
  const [open, at] = [shape.indexOf('[') + 1, shape.indexOf('0')];
  const close = shape.slice(at + 1, shape.indexOf(']') + 1);
  return {
    start: Buffer.from(shape.slice(0, open)),
    /** What goes before the first entry, and before each other one. */
    before: [Buffer.from(shape.slice(open, at)), Buffer.from(`,${shape.slice(open, at)}`)] as const,
    /** An entry as sent: compact, its JSON as it is, never re-parsed; with `indent`, parsed and indented alone. */
    entry: (json: Buffer) => (pretty ? pretty.render(JSON.parse(json.toString()), 2) : json),
    /** The links as the whole page renders them: what follows its `data` when that is empty. */
    end(count: number, links: StoredDoc) {
      const tail = apiJson({ data: [], ...links }, indent);
      return Buffer.from(`${count ? close : ']'}${tail.slice(tail.indexOf('[]') + 2)}`);
    },
  };
}

/** The largest page sent as one buffer when its first part is its last (docs/platform.md §Limits). */
const WHOLE_PAGE_BYTES = 4 * PART_BYTES;

/** A page read in one part, as one buffer: `undefined` when its entries pass `WHOLE_PAGE_BYTES`. */
function wholePage(entries: Buffer[], links: StoredDoc, indent: number | undefined): Buffer | undefined {
  if (entries.reduce((bytes, entry) => bytes + entry.length, 0) > WHOLE_PAGE_BYTES) return undefined;
  const shape = pageShape(indent);
  const chunks: Buffer[] = [shape.start];
  entries.forEach((entry, i) => chunks.push(shape.before[i ? 1 : 0], shape.entry(entry)));
  chunks.push(shape.end(entries.length, links));
  return Buffer.concat(chunks);
}

/**
 * `{"data": [entries], ...links}` from the entries' JSON, as the client takes it, the event loop given back after
 * each `PART_BYTES` (docs/platform.md §Limits); the links come last, once the parts say where the next page
 * starts.
 */
async function* pageBody(
  firstPart: Buffer[],
  rest: AsyncIterable<Buffer[]>,
  links: () => StoredDoc,
  indent: number | undefined,
): AsyncGenerator<Buffer> {
  const shape = pageShape(indent);
  let count = 0;
  // Entries go out joined, about PART_BYTES at a time: a chunk per entry cost the socket a write and the stream a
  // step each (docs/performance.md §Feed entries kept on SQLite).
  let joined: Buffer[] = [shape.start];
  let joinedBytes = 0;
  const flush = () => {
    const chunk = Buffer.concat(joined);
    joined = [];
    joinedBytes = 0;
    return chunk;
  };
  async function* entries(part: Buffer[]) {
    for (const entry of part) {
      const json = shape.entry(entry);
      joined.push(shape.before[count++ ? 1 : 0], json);
      joinedBytes += json.length;
      if (joinedBytes < PART_BYTES) continue;
      yield flush();
      await yieldLoop();
    }
  }
  yield* entries(firstPart);
  for await (const part of rest) {
    if (joined.length) yield flush(); // what is joined goes out before the next part is read
    yield* entries(part);
  }
  joined.push(shape.end(count, links()));
  yield flush();
}

/**
 * The one feed engine. Pages are ordered by the store's feed positions, and `offset` is the position of the last
 * listed entry: UNIX seconds as a JSON number, as the spec shows, and crawler-safe because positions are unique and
 * rise in commit order (docs/platform.md §Feeds) — a crawler that follows `next_page` sees every change (at its
 * latest state). This is the handler of every feed route.
 */
/** `GET /api/2.5/{kind}`: the feed of a collection, as a route of the table (docs/architecture.md §Routes). */
export function feedRoute(source: FeedSource, publicBaseUrl: string | null): MountableRoute {
  return route({
    method: 'get',
    path: `/api/2.5/${source.kind}`,
    summary: `Feed of ${source.kind}, paged by next_page.offset`,
    access: 'public',
    result: source.releasesOf ? 'feedOrOcds' : 'feed',
    handle: feedHandler(source, publicBaseUrl),
  });
}

export function feedHandler(source: FeedSource, publicBaseUrl: string | null, scope?: FrameworkScope) {
  return async (ctx: Ctx): Promise<void> => {
    const params = parseFeedParams(source.kind, ctx.query, source.allowedFields, source.defaultFields);
    if (scope) params.query.frameworkID = scope.frameworkID(ctx);
    if (wantsEventStream(ctx)) return streamFeed(ctx, params.query, streamRender(source, params.listed, ctx.state.viewer));
    const releasesOf = wantsOcds(ctx.query) ? source.releasesOf : undefined;
    if (releasesOf) params.echo.push(['opt_schema', 'ocds']);
    const linkPath = scope?.linkPath ?? ctx.path;
    const { descending } = params.query;
    const given = params.rawOffset === undefined ? '' : offsetEcho(params.rawOffset);
    const linksOf = (first: number | undefined, next: number | undefined) => {
      const links: StoredDoc = { next_page: pageLink(ctx, publicBaseUrl, linkPath, params.echo, next ?? given, descending) };
      if (params.rawOffset !== undefined || descending) {
        const back = previousOffset(first, params.query) ?? given;
        links.prev_page = pageLink(ctx, publicBaseUrl, linkPath, params.echo, back, !descending);
      }
      return links;
    };
    if (releasesOf) {
      // An OCDS page lists the same entries, in the same order and with the same links (docs/ocds.md §Feeds).
      const uri = pageLink(ctx, publicBaseUrl, linkPath, params.echo, given, descending).uri;
      const head = { uri, publisher: { name: REGISTRY_PUBLISHER }, now: formatKyiv(ctx.state.now) };
      const json = new SplicedJson(prettyIndent(ctx.query));
      const end: PageEnd & { first?: number } = {};
      const releases = ocdsReleases(ctx, source, releasesOf, params.query, json, end);
      sendSpliced(ctx, await releasePackageJson(json, head, releases, () => linksOf(end.first, end.next)));
      return;
    }
    const { firstPart, first, rest, end } = await pageEntries(ctx, source, params);
    const indent = prettyIndent(ctx.query);
    ctx.type = 'json';
    // A page read in one part goes as one buffer when small: a stream costs the answer more than its entries do.
    const whole = end.complete ? wholePage(firstPart, linksOf(first, end.next), indent) : undefined;
    ctx.body =
      whole ??
      Readable.from(
        pageBody(firstPart, rest, () => linksOf(first, end.next), indent),
        { objectMode: false },
      );
  };
}
