import Router, { type AllowedMethodsOptions, type RouterMiddleware } from '@koa/router';
import type Joi from 'joi';
import { inGroup, isBroker } from './auth';
import type { Ctx, RequestState } from './context';
import { forbidden } from './errors';

export type Method = 'get' | 'head' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Who may call a route (docs/architecture.md §Routes), checked before its handler runs and after the object its path
 * names is loaded, so an unknown object answers 404 before any 403, as the reference does:
 * - `public`: anyone;
 * - `broker`: a key of the `brokers` group (accreditation levels stay with the rule that words their refusal);
 * - `system`: a key of one of `groups`;
 * - `owner`: a broker presenting the token of `of` (the object, or a sub-object the path names), judged by `owns`
 *   on what `load` brought.
 */
export type Access<Loaded> =
  'public' | 'broker' | { system: readonly string[] } | { owner: string; owns: (ctx: Ctx, loaded: Loaded) => boolean };

/** A procedure's config table, as OpenAPI shows it: the allowed values of each key. */
export type ConfigTable = Record<string, { type: 'boolean'; allowed: boolean[] } | { type: 'integer'; minimum: number; maximum: number }>;

/** One accepted `{data, config}` body: `data` validated by a joi schema, `config` by joi or a procedure's config table. */
export interface BodyVariant {
  data: Joi.Schema;
  config?: Joi.Schema | ConfigTable;
}

/** What a successful response carries (OpenAPI's success answer for it: src/openapi/openapi-document.ts). */
export type ResultShape =
  | 'object'
  | 'created'
  | 'feed'
  | 'list'
  | 'status'
  | 'metrics'
  | 'document'
  | 'description'
  | 'refused'
  | 'retired'
  /** The object, or an OCDS release package with `opt_schema=ocds` (docs/ocds.md §Asking for OCDS). */
  | 'objectOrOcds'
  /** A feed page, or an OCDS release package of its entries with `opt_schema=ocds` (docs/ocds.md §Feeds). */
  | 'feedOrOcds';

/** A route as the OpenAPI document describes it. */
export interface RouteDescription {
  method: Method;
  /** The full path, with `:param` segments. */
  path: string;
  summary: string;
  /** The OpenAPI tag: the path's collection unless given. */
  tag?: string;
  /** Who may call it, as documented: `owner` routes take the token (`acc_token`). */
  access: 'public' | 'broker' | 'owner' | 'system';
  /**
   * `variants` for JSON bodies, `'file'` for a multipart upload, `'document'` for either that or JSON naming the
   * document service's url, `'any-data'` when only `data` being an object is checked.
   */
  body?: BodyVariant[] | 'file' | 'document' | 'any-data';
  result: ResultShape;
  /** Writes that compare revisions may answer 409. */
  writes?: boolean;
  /** Extra query parameters beyond those implied by `result` and `access`. */
  query?: { name: string; description: string }[];
  /** Request headers the route reads. */
  headers?: { name: string; description: string }[];
}

/** A route of the table: what OpenAPI describes, and what runs. */
export interface Route<Loaded = undefined> extends Omit<RouteDescription, 'access'> {
  access: Access<Loaded>;
  /** The object the path names, loaded before access is judged (its absence is a 404). */
  load?: (ctx: Ctx) => Promise<Loaded>;
  handle: (ctx: Ctx, loaded: Loaded) => unknown;
}

/** A route ready to mount: its description, and one middleware that loads, judges access and handles. */
export interface MountableRoute {
  description: RouteDescription;
  run: (ctx: Ctx) => Promise<void>;
}

function judged<Loaded>(access: Access<Loaded>, ctx: Ctx, loaded: Loaded): boolean {
  if (access === 'public') return true;
  if (access === 'broker') return isBroker(ctx.state.viewer);
  if ('system' in access) return access.system.some((group) => inGroup(ctx.state.viewer, group));
  return access.owns(ctx, loaded);
}

const documented = (access: Access<unknown>): RouteDescription['access'] =>
  typeof access === 'string' ? access : 'system' in access ? 'system' : 'owner';

/** The path's collection (`/api/2.5/frameworks/:id/questions` → `frameworks`), the tag of a route that names none. */
const collectionOf = (path: string) => path.split('/')[3] ?? 'operations';

/** Binds a route's types: the table holds routes of any `Loaded`. */
export function route<Loaded = undefined>(spec: Route<Loaded>): MountableRoute {
  const { access, load, handle, ...rest } = spec;
  return {
    description: { ...rest, tag: rest.tag ?? collectionOf(rest.path), access: documented(access as Access<unknown>) },
    async run(ctx) {
      const loaded = (load ? await load(ctx) : undefined) as Loaded;
      if (!judged(access, ctx, loaded)) throw forbidden();
      await handle(ctx, loaded);
    },
  };
}

/**
 * Which of `routerOf`'s routers holds a path: its collection and, below an object, its sub-resource
 * (`/api/2.5/tenders/:id/bids/:bid` → `tenders/bids`; `/api/2.5/tenders` and `/api/2.5/tenders/:id` → `tenders/`;
 * `/healthz` → `/`). The fourth segment of every route is an object's id, so a request can only match routes whose
 * path falls in the same router; lower case, as the routers match regardless of case.
 */
function routerKeyOf(path: string): string {
  const segments = path.split('/', 6);
  return `${segments[3] ?? ''}/${segments[5] ?? ''}`.toLowerCase();
}

/** What `routerOf` gives: the middleware routing a request, and `allowedMethods` as @koa/router's. */
export interface RoutedTable {
  routes(): RouterMiddleware<RequestState> & { router: Router<RequestState> };
  allowedMethods(options?: AllowedMethodsOptions): RouterMiddleware<RequestState>;
}

/**
 * A router serving the routes, in their order: one @koa/router per collection and sub-resource (`routerKeyOf`),
 * picked by the request's path, so a request is tested against its own few routes instead of all of them
 * (docs/performance.md §Routing). The middleware carries a router holding every route's layer, in table order, as
 * a mounted @koa/router does: the OpenTelemetry Koa instrumentation names spans by it and its layers are the
 * ones that run.
 */
export function routerOf(routes: readonly MountableRoute[]): RoutedTable {
  const all = new Router<RequestState>();
  const routers = new Map<string, Router<RequestState>>();
  for (const { description, run } of routes) {
    const key = routerKeyOf(description.path);
    let router = routers.get(key);
    if (!router) routers.set(key, (router = new Router<RequestState>()));
    router[description.method](description.path, run);
    all.stack.push(router.stack[router.stack.length - 1]);
  }
  const dispatch = new Map([...routers].map(([key, router]) => [key, router.routes()]));
  // A path no route can match still goes through a router, which tells allowedMethods that nothing matched.
  const unmatched = dispatch.get('/') ?? new Router<RequestState>().routes();
  const routed: RouterMiddleware<RequestState> = (ctx, next) => (dispatch.get(routerKeyOf(ctx.path)) ?? unmatched)(ctx, next);
  const middleware = Object.assign(routed, { router: all });
  return { routes: () => middleware, allowedMethods: (options) => all.allowedMethods(options) };
}
