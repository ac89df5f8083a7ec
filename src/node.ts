import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { Logger } from 'pino';
import { assembleNode } from './assemble-node';
import type { Config } from './config';
import { answerParserErrors } from './http/parser-errors';
import type { Clock } from './time/clock';
import { koaHandler } from './http/koa-handler';

export interface RunningNode {
  server: Server | null;
  url: string | null;
  stop(): Promise<void>;
}

/** Starts what the node's ROLE asks for and returns a handle that stops it gracefully. */
export async function startNode(config: Config, clock: Clock, logger: Logger): Promise<RunningNode> {
  // From SIGTERM on, /readyz answers 503 and every response closes its connection (docs/operations.md §Rollouts).
  let draining = false;
  const notDraining = async () => {
    if (draining) throw new Error('draining: the node is stopping');
  };
  const node = await assembleNode(config, { clock, logger, readinessChecks: [notDraining] });
  const handle = koaHandler(node.app);
  const server = createServer((req, res) => {
    if (draining) res.setHeader('Connection', 'close'); // a keep-alive client moves to another node now
    handle(req, res);
  });
  answerParserErrors(server);
  server.keepAliveTimeout = 5000;
  // A client that trickles its request is cut off rather than holding a socket for Node's 5-minute default.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A failed accept (EMFILE when descriptors run out) is an `error` on the server: logged, the node serves on.
  server.on('error', (err) => logger.error({ err }, 'http server error'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  logger.info({ url, role: config.role, store: node.store.engine }, 'listening');
  return {
    server,
    url,
    async stop() {
      draining = true;
      if (config.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
      // Live feed streams never end on their own: they end now, and their clients reconnect to another node.
      await node.closeStreams();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await node.stop();
    },
  };
}
