import Router from '@koa/router';
import type { RequestState } from '../http/context';
import type { RouteDescription } from '../http/route';
import { buildOpenApiDocument } from './openapi-document';

/** `GET /api/2.5/openapi.json`: built on first request (converting every joi schema takes a moment) and kept. */
export function openApiRoutes(routes: readonly RouteDescription[]): Router<RequestState> {
  const router = new Router<RequestState>();
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get('/api/2.5/openapi.json', (ctx) => {
    document ??= buildOpenApiDocument(routes);
    ctx.body = document;
  });
  return router;
}
