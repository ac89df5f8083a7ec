import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app';
import type { Config } from './config';
import { loadAuthFile } from './http/auth';
import { soloMembership } from './membership/membership';
import { openStore } from './store/open-store';
import type { Clock } from './time/clock';

export interface RunningNode {
  server: Server | null;
  url: string | null;
  stop(): Promise<void>;
}

/** Starts what the node's ROLE asks for and returns a handle that stops it gracefully. */
export async function startNode(config: Config, clock: Clock, logger: Logger): Promise<RunningNode> {
  const store = await openStore(config.storeUrl, { readPreference: config.readPreference });
  const membership = soloMembership(config.nodeId);
  await membership.start();
  if (config.sessionSecretGenerated) {
    logger.warn('SESSION_SECRET is not set: using a random secret; cookies will not survive a restart');
  }
  let server: Server | null = null;
  let url: string | null = null;
  if (config.role !== 'worker') {
    const app = createApp({ config, store, membership, accounts: loadAuthFile(config.authFile), clock, logger });
    server = createServer(app.callback());
    server.keepAliveTimeout = 5000;
    // A client that trickles its request is cut off rather than holding a socket for Node's 5-minute default.
    server.requestTimeout = 30_000;
    server.headersTimeout = 10_000;
    await new Promise<void>((resolve) => server!.listen(config.port, config.host, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    url = `http://${config.host}:${port}`;
    logger.info({ url, role: config.role, store: store.engine }, 'listening');
  }
  return {
    server,
    url,
    async stop() {
      if (server) {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
        server.closeIdleConnections();
        await closed;
      }
      await membership.stop();
      await store.close();
    },
  };
}
