import type { Account } from '../../http/auth';
import type { Ctx } from '../../http/context';

/**
 * What a lifecycle needs to know of the request that acts (docs/architecture.md §Routes): the account, which the
 * route's access has already judged, and the request's one time. Lifecycles take it, never the Koa context.
 */
export interface Actor {
  account: Account;
  now: Date;
}

/** The actor of a request whose route let only a key through (`broker`, `owner`, `system` access). */
export function actorOf(ctx: Ctx): Actor {
  const { account } = ctx.state.viewer;
  if (!account) throw new Error('actorOf: a route open to anonymous readers has no actor');
  return { account, now: ctx.state.now };
}
