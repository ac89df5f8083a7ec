import { absoluteUrl } from './render';
import { route, type MountableRoute, type RouteDescription } from './route';

/**
 * `GET /api/2.5`: where a new client starts. The reference has no route here (404); this answers the collections
 * with their feed's link, and the links to the OpenAPI document and SPORE, all made from the route table, so it
 * lists exactly what is served. `described` gives every route once the table is whole.
 */
export function apiIndexRoute(described: () => readonly RouteDescription[], publicBaseUrl: string | null): MountableRoute {
  return route({
    method: 'get',
    path: '/api/2.5',
    summary: 'The collections, with links to their feeds, the OpenAPI document and SPORE',
    tag: 'operations',
    access: 'public',
    result: 'description',
    handle: (ctx) => {
      const link = (path: string) => absoluteUrl(ctx, publicBaseUrl, path);
      const collections = described()
        .filter((r) => r.method === 'get' && (r.result === 'feed' || r.result === 'feedOrOcds') && /^\/api\/2\.5\/[a-z_]+$/.test(r.path))
        .map((r) => ({ name: r.path.slice('/api/2.5/'.length), href: link(r.path) }));
      ctx.body = {
        data: {
          name: 'registry',
          version: '2.5',
          collections,
          openapi: link('/api/2.5/openapi.json'),
          spore: link('/api/2.5/spore'),
        },
      };
    },
  });
}
