import type Router from '@koa/router';
import type { AppDeps } from '../../app';
import type { RequestState } from '../../http/context';
import { agreementRoutes } from '../agreement/agreement-routes';
import { qualificationRoutes } from '../qualification/qualification-routes';
import { questionRoutes } from '../question/question-routes';
import { submissionRoutes } from '../submission/submission-routes';
import { frameworkRoutes } from './framework-routes';

/** Every router of the framework side (frameworks, questions, submissions, qualifications, agreements, documents). */
export function frameworkSideRouters(deps: AppDeps): Router<RequestState>[] {
  return [frameworkRoutes(deps), questionRoutes(deps), submissionRoutes(deps), qualificationRoutes(deps), agreementRoutes(deps)];
}
