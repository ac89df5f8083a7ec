import type Koa from 'koa';
import jwt from 'jsonwebtoken';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { CausalToken, Store } from '../store/port';
import type { Membership } from '../membership/membership';
import type { RequestState } from './context';
import { ApiError } from './errors';
import { sessionPreconditionFailures } from '../metrics';

export const SESSION_COOKIE = 'SESSION';

/** What a SESSION cookie carries: the node that issued it and the client's causal position. */
export interface SessionClaims {
  node: string;
  causal: CausalToken;
}

/** Distinct sessions remembered per process: each entry is one cookie value (about 150 bytes) and its claims. */
const REMEMBERED_SESSIONS = 10_000;

/**
 * Signs and verifies SESSION cookies with one secret. A cookie carries no expiry, so a value that verified once
 * stays valid and the claims a value was made for keep that value: both are remembered, which spares the HMAC
 * and jsonwebtoken's argument checks (a tenth of a GET's CPU) for the many requests whose causal position did
 * not move. Forged values are never remembered.
 */
class SessionCodec {
  private readonly key: KeyObject;
  private readonly valueOfClaims = new LRUCache<string, string>({ max: REMEMBERED_SESSIONS });
  private readonly claimsOfValue = new LRUCache<string, SessionClaims>({ max: REMEMBERED_SESSIONS });

  constructor(secret: string) {
    // Given a string, jsonwebtoken tries it as a PEM private key first, on every sign and verify.
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  encode(claims: SessionClaims): string {
    const claimsKey = keyOfClaims(claims);
    let value = this.valueOfClaims.get(claimsKey);
    if (value === undefined) {
      value = jwt.sign({ n: claims.node, c: claims.causal }, this.key, { algorithm: 'HS256', noTimestamp: true });
      this.remember(value, claims, claimsKey);
    }
    return value;
  }

  decode(value: string): SessionClaims | null {
    const known = this.claimsOfValue.get(value);
    if (known) return known;
    let payload: { n?: unknown; c?: unknown };
    try {
      payload = jwt.verify(value, this.key, { algorithms: ['HS256'] }) as typeof payload;
    } catch {
      return null;
    }
    if (typeof payload.n !== 'string' || !payload.c || typeof payload.c !== 'object') return null;
    const claims: SessionClaims = { node: payload.n, causal: payload.c as CausalToken };
    this.remember(value, claims, keyOfClaims(claims));
    return claims;
  }

  private remember(value: string, claims: SessionClaims, claimsKey: string) {
    this.valueOfClaims.set(claimsKey, value);
    this.claimsOfValue.set(value, claims);
  }
}

const keyOfClaims = (claims: SessionClaims) => `${claims.node}\n${JSON.stringify(claims.causal)}`;

const codecs = new Map<string, SessionCodec>();
function codecOf(secret: string): SessionCodec {
  let codec = codecs.get(secret);
  if (!codec) {
    codec = new SessionCodec(secret);
    codecs.set(secret, codec);
  }
  return codec;
}

export function encodeSession(claims: SessionClaims, secret: string): string {
  return codecOf(secret).encode(claims);
}

/** A malformed, forged or otherwise unreadable cookie is treated as absent (docs/architecture.md §Sessions and causal tokens). */
export function decodeSession(value: string | undefined, secret: string): SessionClaims | null {
  return value ? codecOf(secret).decode(value) : null;
}

/**
 * Opens the request's store session from the SESSION cookie and, once `handle` has run, sets the cookie again on
 * every response, errors included. A cookie naming a node that is gone gets 412 with a fresh cookie that keeps the
 * causal position, so the client's retry keeps its guarantees. A store that stays unreachable (the MongoDB driver
 * has already retried once, e.g. through a primary change) is a 503 for reads and writes alike.
 */
export async function inStoreSession(
  ctx: Koa.ParameterizedContext<RequestState>,
  store: Store,
  membership: Membership,
  secret: string,
  handle: () => Promise<unknown>,
): Promise<void> {
  const claims = decodeSession(cookieValue(ctx.get('cookie')), secret);
  // Its commits are kept in history as made for the request's broker or system role (docs/architecture.md §Revision history).
  const session = store.session(claims?.causal, ctx.state.viewer.account?.name);
  ctx.state.session = session;
  try {
    if (claims && claims.node !== membership.selfId && !(await membership.isAlive(claims.node))) {
      sessionPreconditionFailures.inc();
      throw new ApiError(412, [{ location: 'url', name: 'precondition', description: 'Precondition Failed' }]);
    }
    await handle();
  } finally {
    const value = encodeSession({ node: membership.selfId, causal: session.token() }, secret);
    ctx.set('Set-Cookie', `${SESSION_COOKIE}=${value}; Path=/`);
  }
}

/**
 * The SESSION value from a Cookie header. Tolerates clients that echo the whole Set-Cookie value back
 * (`SESSION=…; Path=/`), as the reference's Python client does.
 */
export function cookieValue(header: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE)
      return part
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
  }
  return undefined;
}
