import type { RouteDescription } from '../http/route';

/** The routes of modules not yet on the route table (docs/architecture.md §Routes): none are left. */
export const ROUTE_DESCRIPTIONS: RouteDescription[] = [];
