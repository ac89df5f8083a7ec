import Router from '@koa/router';
import type { RequestState } from '../http/context';
import { CONSTANTS } from './constants';

/** `GET /constants`: the spec's rule-change dates, in the spec's order. */
export function constantsRoutes(): Router<RequestState> {
  const router = new Router<RequestState>();
  router.get('/api/2.5/constants', (ctx) => {
    ctx.body = CONSTANTS;
  });
  return router;
}
