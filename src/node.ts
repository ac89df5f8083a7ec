import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { Logger } from 'pino';
import { assembleNode, type NodeParts } from './assemble-node';
import type { Config } from './config';
import { answerParserErrors } from './http/parser-errors';
import type { Clock } from './time/clock';
import { koaHandler } from './http/koa-handler';
import { metricsApp } from './http/metrics-app';

export interface RunningNode {
  server: Server | null;
  url: string | null;
  /** The metrics listener's URL, when METRICS_PORT is set. */
  metricsUrl: string | null;
  /** The built-in document service's listener's URL, when DOCSERVICE_PORT is set on a node that serves the API. */
  docserviceUrl: string | null;
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
  // The API's listener and the document service's (DOCSERVICE_PORT) drain and time out alike.
  const serving = (app: NodeParts['app']) => {
    const handle = koaHandler(app);
    const created = createServer((req, res) => {
      if (draining) res.setHeader('Connection', 'close'); // a keep-alive client moves to another node now
      handle(req, res);
    });
    answerParserErrors(created);
    created.keepAliveTimeout = 5000;
    // A client that trickles its request is cut off rather than holding a socket for Node's 5-minute default.
    created.requestTimeout = 30_000;
    created.headersTimeout = 10_000;
    return created;
  };
  const server = serving(node.app);
  const url = await listen(server, config.port, config.host, logger);
  const metricsServer = config.metricsPort === null ? null : createServer(koaHandler(metricsApp()));
  const metricsUrl = metricsServer && (await listen(metricsServer, config.metricsPort!, config.host, logger));
  const docserviceServer = node.docservice && serving(node.docservice);
  const docserviceUrl = docserviceServer && (await listen(docserviceServer, config.docservicePort!, config.host, logger));
  logger.info({ url, metricsUrl, docserviceUrl, role: config.role, store: node.store.engine }, 'listening');
  return {
    server,
    url,
    metricsUrl,
    docserviceUrl,
    async stop() {
      draining = true;
      if (config.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
      // Live feed streams never end on their own: they end now, and their clients reconnect to another node.
      await node.closeStreams();
      await Promise.all(
        [server, docserviceServer].map(async (open) => {
          if (!open) return;
          const closed = new Promise<void>((resolve) => open.close(() => resolve()));
          open.closeIdleConnections();
          await closed;
        }),
      );
      if (metricsServer) {
        const metricsClosed = new Promise<void>((resolve) => metricsServer.close(() => resolve()));
        metricsServer.closeAllConnections(); // a scraper's keep-alive connection holds nothing worth finishing
        await metricsClosed;
      }
      await node.stop();
    },
  };
}

/** Listens on `port` (0: any free one) and answers the URL; a failed accept later (EMFILE) is logged, serving goes on. */
async function listen(server: Server, port: number, host: string, logger: Logger): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => logger.error({ err }, 'http server error'));
  const address = server.address();
  return `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
}
