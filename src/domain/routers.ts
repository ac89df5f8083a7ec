import type Router from '@koa/router';
import type { AppDeps } from '../app';
import type { RequestState } from '../http/context';
import { chronographRoutes } from './chronograph/chronograph-routes';
import { frameworkSideRouters } from './framework/framework-side-routers';
import { tenderRoutes } from './tender/tender.routes';
import { contractRoutes } from './contract/contract.routes';

/** Every domain module's routes, in one list: the only place a new object kind is wired in. */
export function domainRouters(_deps: AppDeps): Router<RequestState>[] {
  return [chronographRoutes(), ...frameworkSideRouters(_deps), tenderRoutes(_deps), contractRoutes(_deps)];
}
