import type { RouteDeps } from './app-deps';
import { domainRoutes } from './domain/routers';
import type { MountableRoute, RouteDescription } from './http/route';
import { apiIndexRoute } from './http/api-index';
import { sporeRoutes } from './http/spore';
import { systemRoutes } from './http/system-routes';
import { openApiRoute } from './openapi/openapi-routes';
import type { Store } from './store/port';

/**
 * Every route of the app in one table (docs/architecture.md §Routes): system routes, every kind's, the index, the
 * OpenAPI document and SPORE, which describe the table itself.
 */
export function routeTable(deps: RouteDeps & { store: Pick<Store, 'ping'>; readinessChecks?: (() => Promise<void>)[] }): {
  table: MountableRoute[];
  described: () => RouteDescription[];
} {
  const table: MountableRoute[] = [...systemRoutes(deps.store, deps.readinessChecks), ...domainRoutes(deps)];
  const described = () => table.map((r) => r.description);
  table.push(apiIndexRoute(described, deps.config.publicBaseUrl), openApiRoute(described), ...sporeRoutes(described));
  return { table, described };
}
