import { route, type MountableRoute } from '../http/route';
import { CONSTANTS } from './core/constants';

/** `GET /constants`: the spec's rule-change dates, in the spec's order. */
export function constantsRoutes(): MountableRoute[] {
  return [
    route({
      method: 'get',
      path: '/api/2.5/constants',
      summary: 'Constants of the API',
      tag: 'operations',
      access: 'public',
      result: 'description',
      handle: (ctx) => {
        ctx.body = CONSTANTS;
      },
    }),
  ];
}
