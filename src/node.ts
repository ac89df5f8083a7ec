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
  const node = await assembleNode(config, { clock, logger });
  const server = createServer(koaHandler(node.app));
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
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await node.stop();
    },
  };
}
