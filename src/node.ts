import type { Server } from 'node:http';
import { createServer } from 'node:http';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { createApp } from './app';
import type { Config } from './config';
import { loadAuthFile } from './http/auth';
import { answerParserErrors } from './http/parser-errors';
import { probeApp } from './jobs/probe-app';
import { startJobs } from './jobs/start-jobs';
import { openMembership } from './membership/open-membership';
import { instrumentedStore } from './store/instrumented-store';
import { openStore } from './store/open-store';
import type { Clock } from './time/clock';
import { koaHandler } from './http/koa-handler';

export interface RunningNode {
  server: Server | null;
  url: string | null;
  stop(): Promise<void>;
}

/** Starts what the node's ROLE asks for and returns a handle that stops it gracefully. */
export async function startNode(config: Config, clock: Clock, logger: Logger): Promise<RunningNode> {
  // Writers use the jobs' store: its commits plan the next checks (docs/architecture.md §Automatic transitions).
  const opened = instrumentedStore(
    await openStore(config.storeUrl, {
      readPreference: config.readPreference,
      testStaleReadsMs: config.testStaleReadsMs,
      feedCacheBytes: config.feedCacheBytes,
    }),
  );
  const jobs = startJobs(config, opened, clock, logger);
  const { store } = jobs;
  // From SIGTERM on, /readyz answers 503 and every response closes its connection (docs/operations.md §Rollouts).
  let draining = false;
  const readinessChecks = [
    ...jobs.readinessChecks,
    async () => {
      if (draining) throw new Error('draining: the node is stopping');
    },
  ];
  const membership = openMembership(config, clock, logger);
  await membership.start();
  if (config.sessionSecretGenerated) {
    logger.warn('SESSION_SECRET is not set: using a random secret; cookies will not survive a restart');
  }
  const rateLimitRedis =
    config.redisUrl && config.rateLimitPerMinute > 0 && config.role !== 'worker'
      ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }).on('error', () => {}) // each failed count is logged per request
      : null;
  // A worker serves only its probes and metrics (k8s/base/worker-deployment.yaml).
  const app =
    config.role === 'worker'
      ? probeApp(store, readinessChecks)
      : createApp({ config, store, membership, accounts: loadAuthFile(config.authFile), clock, logger, readinessChecks, rateLimitRedis });
  const handle = koaHandler(app);
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
  logger.info({ url, role: config.role, store: store.engine }, 'listening');
  return {
    server,
    url,
    async stop() {
      draining = true;
      if (config.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await membership.stop();
      rateLimitRedis?.disconnect();
      await jobs.stop();
      await store.close();
    },
  };
}
