import { isBroker } from '../../http/auth';
import type { Ctx } from '../../http/context';
import { tokenMatches } from '../../security/tokens';
import type { ObjectDoc } from './objects';

/** The owner token from `acc_token`, `X-Access-Token` or a JSON body's `access.token`, first non-empty wins. */
export function presentedToken(ctx: Ctx): string | null {
  const query = ctx.query.acc_token;
  if (typeof query === 'string' && query) return query;
  const header = ctx.get('x-access-token');
  if (header) return header;
  const body = ctx.state.body as { access?: { token?: unknown } } | undefined;
  const fromBody = body && typeof body === 'object' ? body.access?.token : undefined;
  return typeof fromBody === 'string' && fromBody ? fromBody : null;
}

/** The broker that created the object, presenting its token (docs/platform.md §Owner tokens). */
export function isOwner(ctx: Ctx, doc: ObjectDoc): boolean {
  const account = ctx.state.viewer.account;
  const { owner } = doc.data as { owner?: unknown };
  return !!account && account.name === owner && tokenMatches(presentedToken(ctx), doc.secrets?.tokenHash);
}

/**
 * `owner` access to the object a route loads (docs/architecture.md §Routes): a broker presenting its token.
 * `of` names it in the OpenAPI document.
 */
export function ownerOf<Loaded>(of: string, docOf: (loaded: Loaded) => ObjectDoc) {
  return { owner: of, owns: (ctx: Ctx, loaded: Loaded) => isBroker(ctx.state.viewer) && isOwner(ctx, docOf(loaded)) };
}
