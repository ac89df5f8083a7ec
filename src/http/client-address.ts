import type Koa from 'koa';
import proxyaddr from 'proxy-addr';
import type { ProxyTrust } from '../config';

/** The proxy-addr test of one address at one hop (0 = the socket's peer). */
export function trustTest(trust: ProxyTrust): (address: string, hop: number) => boolean {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : proxyaddr.compile([...trust]);
}

const FORWARDED = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'];

/**
 * The client's address as the trusted proxies report it: `X-Forwarded-For` read from the right, skipping the
 * proxies trusted, so the right-most untrusted address is the client's, whatever a client writes on the left. A
 * request whose peer is not a trusted proxy loses its forwarded headers, so neither its address nor the host and
 * protocol Koa reads for absolute URLs can be chosen by the client.
 */
export function takeClientAddress(ctx: Koa.Context, trusted: (address: string, hop: number) => boolean): void {
  if (!trusted(ctx.req.socket.remoteAddress ?? '', 0)) for (const header of FORWARDED) delete ctx.req.headers[header];
  ctx.request.ip = proxyaddr(ctx.req, trusted);
}

/** `takeClientAddress` as a middleware, for the apps whose middlewares are separate. */
export function clientAddress(trust: ProxyTrust): Koa.Middleware {
  const trusted = trustTest(trust);
  return async function clientAddressOfRequest(ctx, next) {
    takeClientAddress(ctx, trusted);
    await next();
  };
}
