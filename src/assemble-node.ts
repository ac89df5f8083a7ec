import type Koa from 'koa';
import type { Logger } from 'pino';
import { createApp } from './app';
import type { Config } from './config';
import { loadAuthFile } from './http/auth';
import { docserviceApp } from './docservice-app';
import type { RequestState } from './http/context';
import { probeApp } from './jobs/probe-app';
import { startJobs, type Jobs } from './jobs/start-jobs';
import type { Membership } from './membership/membership';
import { openMembership } from './membership/open-membership';
import { LiveFeeds } from './http/live-feeds';
import { noticeCommits } from './store/commit-notices';
import { instrumentedStore } from './store/instrumented-store';
import { openStore } from './store/open-store';
import type { Store } from './store/port';
import type { MongoStoreOptions } from './store/mongo/mongo-store';
import type { Clock } from './time/clock';

export interface NodeDeps {
  clock: Clock;
  logger: Logger;
  /** The node's membership; by default the one its configuration asks for (openMembership). */
  membership?: Membership;
  /** Puts something between the node and the store it opened (tests: a slow or failing store). */
  wrapStore?: (store: Store) => Store;
  /** More for `/readyz` to check, after the store and the jobs' own (a stopping node's drain). */
  readinessChecks?: (() => Promise<void>)[];
  /** The in-process timer is wired but only its `tick()` runs checks (tests drive it with their clock). */
  manualTimer?: boolean;
  /** Told of every command the MongoDB driver sends (the bench's round-trip count). */
  onStoreCommand?: MongoStoreOptions['onCommand'];
}

/** A node's parts before it listens: the app its ROLE serves, and what the app runs on. */
export interface NodeParts {
  app: Koa<RequestState>;
  /** The built-in document service's app, for the DOCSERVICE_PORT listener; null when this node serves none. */
  docservice: Koa<RequestState> | null;
  /** The store every writer uses: its commits plan the next checks (docs/architecture.md §Automatic transitions). */
  store: Store;
  jobs: Jobs;
  membership: Membership;
  /** Ends the live feed streams (docs/platform.md §Live feed) and refuses new ones; a server closes only without them. */
  closeStreams(): Promise<void>;
  /** Stops the membership, the jobs and the store; the caller closes its server first. */
  stop(): Promise<void>;
}

/** Opens the store and starts the jobs and membership `config` asks for, and builds the app on them. */
export async function assembleNode(config: Config, deps: NodeDeps): Promise<NodeParts> {
  const { clock, logger } = deps;
  const opened = await openStore(config.storeUrl, {
    readPreference: config.readPreference,
    testStaleReadsMs: config.testStaleReadsMs,
    feedCacheBytes: config.feedCacheBytes,
    clock: () => clock.now().getTime(),
    onCommand: deps.onStoreCommand,
  });
  // The live feeds read through the store the node writes with, and its commits (a worker's too) wake them.
  let liveFeeds: LiveFeeds | null = null;
  const noticed = noticeCommits(deps.wrapStore ? deps.wrapStore(opened) : opened, (kinds) => liveFeeds?.committed(kinds));
  const jobs = await startJobs(config, instrumentedStore(noticed), clock, logger, {
    manualTimer: deps.manualTimer,
  });
  const { store } = jobs;
  const feeds = new LiveFeeds(store, config.feedStreams, logger);
  liveFeeds = feeds;
  const readinessChecks = [...jobs.readinessChecks, ...(deps.readinessChecks ?? [])];
  const membership = deps.membership ?? (await openMembership(config, clock, logger));
  await membership.start();
  if (config.sessionSecretGenerated) {
    logger.warn('SESSION_SECRET is not set: using a random secret; cookies will not survive a restart');
  }
  // ioredis loads only for a node that counts requests in Redis.
  const rateLimitRedis =
    config.redisUrl && config.rateLimitPerMinute > 0 && config.role !== 'worker'
      ? new (await import('ioredis')).default(config.redisUrl, { maxRetriesPerRequest: 1 }).on('error', () => {}) // each failed count is logged per request
      : null;
  const accounts = loadAuthFile(config.authFile);
  // A worker serves only its probes and metrics (k8s/base/worker-deployment.yaml).
  const app =
    config.role === 'worker'
      ? probeApp(store, readinessChecks)
      : createApp({ config, store, membership, accounts, clock, logger, readinessChecks, rateLimitRedis, liveFeeds: feeds });
  const { docservice } = config;
  return {
    app,
    docservice:
      config.role !== 'worker' && config.docservicePort !== null && docservice
        ? docserviceApp({ config: { ...config, docservice }, store, accounts, clock, logger })
        : null,
    store,
    jobs,
    membership,
    closeStreams: () => feeds.close(),
    async stop() {
      await feeds.close();
      await membership.stop();
      rateLimitRedis?.disconnect();
      await jobs.stop();
      await store.close();
    },
  };
}
