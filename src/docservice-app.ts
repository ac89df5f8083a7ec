import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config, DocserviceConfig } from './config';
import { serviceRoutes } from './domain/documents/service.routes';
import type { Store } from './store/port';
import type { Clock } from './time/clock';
import { authenticate, type Account } from './http/auth';
import { clientAddress } from './http/client-address';
import type { RequestState } from './http/context';
import { errorRenderer } from './http/errors';
import { noSniff } from './http/no-sniff';
import { requestClock } from './http/request-clock';
import { requestLog } from './http/request-log';
import { requestTimeout } from './http/request-timeout';
import { routerOf } from './http/route';

export interface DocserviceAppDeps {
  config: Config & { docservice: DocserviceConfig };
  store: Store;
  accounts: Map<string, Account>;
  clock: Clock;
  logger: Logger;
}

/**
 * What the built-in document service's listener (`DOCSERVICE_PORT`) serves: the reference document service's routes
 * and nothing of the API (docs/platform.md §Built-in document service). Its files are blobs of the node's store, read
 * and written without causal tokens: a blob is readable from any node once stored (src/store/port.ts).
 */
export function docserviceApp(deps: DocserviceAppDeps): Koa<RequestState> {
  const { config, store } = deps;
  const app = new Koa<RequestState>();
  // Forwarded headers count only from the proxies TRUST_PROXY names, as on the API's listener.
  app.proxy = config.trustProxy !== null;
  app.silent = true;
  if (config.trustProxy !== null) app.use(clientAddress(config.trustProxy));
  app.use(noSniff());
  app.use(requestLog(deps.logger));
  app.use(errorRenderer());
  app.use(requestTimeout(config.requestTimeoutMs));
  app.use(authenticate(deps.accounts));
  app.use(requestClock(deps.clock));
  app.use(async function openSession(ctx, next) {
    ctx.state.session = store.session(undefined, ctx.state.viewer.account?.name);
    await next();
  });
  app.use(routerOf(serviceRoutes({ service: config.docservice, bodyLimit: config.bodyLimit })).routes());
  return app;
}
