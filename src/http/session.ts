import type Koa from 'koa';
import jwt from 'jsonwebtoken';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { StoreUnavailable, type CausalToken, type Store } from '../store/port';
import type { Membership } from '../membership/membership';
import { ApiError, apiError } from './errors';
import { sessionPreconditionFailures } from '../metrics';

export const SESSION_COOKIE = 'SESSION';

/** What a SESSION cookie carries: the node that issued it and the client's causal position. */
export interface SessionClaims {
  node: string;
  causal: CausalToken;
}

const keys = new Map<string, KeyObject>();
/**
 * Given a string, jsonwebtoken first tries to parse it as a PEM private key and catches the failure, on every
 * sign and verify: that was half the CPU time of a GET. A KeyObject made once skips it.
 */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

export function encodeSession(claims: SessionClaims, secret: string): string {
  return jwt.sign({ n: claims.node, c: claims.causal }, keyOf(secret), { algorithm: 'HS256', noTimestamp: true });
}

/** A malformed, forged or otherwise unreadable cookie is treated as absent (design.md §3). */
export function decodeSession(value: string | undefined, secret: string): SessionClaims | null {
  if (!value) return null;
  try {
    const payload = jwt.verify(value, keyOf(secret), { algorithms: ['HS256'] }) as { n?: unknown; c?: unknown };
    if (typeof payload.n !== 'string' || !payload.c || typeof payload.c !== 'object') return null;
    return { node: payload.n, causal: payload.c as CausalToken };
  } catch {
    return null;
  }
}

/**
 * Opens the request's store session from the SESSION cookie and sets the cookie again on every response,
 * errors included. A cookie naming a node that is gone gets 412 with a fresh cookie that keeps the causal
 * position, so the client's retry keeps its guarantees. A store that stays unreachable (the MongoDB driver
 * has already retried once, e.g. through a primary change) is a 503 for reads and writes alike.
 */
export function sessionCookie(store: Store, membership: Membership, secret: string): Koa.Middleware {
  return async function storeSession(ctx, next) {
    const claims = decodeSession(cookieValue(ctx.get('cookie')), secret);
    const session = store.session(claims?.causal);
    ctx.state.session = session;
    try {
      if (claims && claims.node !== membership.selfId && !(await membership.isAlive(claims.node))) {
        sessionPreconditionFailures.inc();
        throw new ApiError(412, [{ location: 'url', name: 'precondition', description: 'Precondition Failed' }]);
      }
      await next();
    } catch (err) {
      if (err instanceof StoreUnavailable) throw apiError(503, 'Service Unavailable', { location: 'url', name: 'store' });
      throw err;
    } finally {
      const value = encodeSession({ node: membership.selfId, causal: session.token() }, secret);
      ctx.set('Set-Cookie', `${SESSION_COOKIE}=${value}; Path=/`);
    }
  };
}

/**
 * The SESSION value from a Cookie header. Tolerates clients that echo the whole Set-Cookie value back
 * (`SESSION=…; Path=/`), as the reference's Python client does.
 */
export function cookieValue(header: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim().replace(/^"|"$/g, '');
  }
  return undefined;
}
