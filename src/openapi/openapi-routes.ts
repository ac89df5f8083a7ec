import { route, type MountableRoute, type RouteDescription } from '../http/route';
import { buildOpenApiDocument } from './openapi-document';

/**
 * `GET /api/2.5/openapi.json`: built from the route table on first request (converting every joi schema takes a
 * moment) and kept; `described` gives every route once the table is whole.
 */
export function openApiRoute(described: () => readonly RouteDescription[]): MountableRoute {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return route({
    method: 'get',
    path: '/api/2.5/openapi.json',
    summary: 'This document',
    access: 'public',
    result: 'description',
    handle: (ctx) => {
      document ??= buildOpenApiDocument(described());
      ctx.body = document;
    },
  });
}
