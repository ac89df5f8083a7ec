import { route, type MountableRoute, type RouteDescription } from '../http/route';
import type { buildOpenApiDocument } from './openapi-document';

/**
 * `GET /api/2.5/openapi.json`: built from the route table on first request and kept; `described` gives every route
 * once the table is whole. The builder (joi-to-json and lodash) loads with that first request, not with every node
 * and test process.
 */
export function openApiRoute(described: () => readonly RouteDescription[]): MountableRoute {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return route({
    method: 'get',
    path: '/api/2.5/openapi.json',
    summary: 'This document',
    access: 'public',
    result: 'description',
    handle: async (ctx) => {
      document ??= (await import('./openapi-document')).buildOpenApiDocument(described());
      ctx.body = document;
    },
  });
}
