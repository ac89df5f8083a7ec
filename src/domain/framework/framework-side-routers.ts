import type Router from '@koa/router';
import type { AppDeps } from '../../app';
import type { RequestState } from '../../http/context';
import { frameworkRoutes } from './framework-routes';

/** Every router of the framework side (frameworks, questions, submissions, qualifications, agreements, documents). */
export function frameworkSideRouters(deps: AppDeps): Router<RequestState>[] {
  return [frameworkRoutes(deps)];
}
