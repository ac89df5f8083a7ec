import type { Logger } from 'pino';
import type { Config } from '../config';
import type { CheckRegistry } from '../domain/core/check-runner';
import type { Store } from '../store/port';
import type { Clock } from '../time/clock';
import type { CheckContext } from './observed-check';
import { schedulingStore } from './scheduler';
import type { CheckQueue, QueueTuning } from './check-queue';
import type { Sweeper } from './sweeper';
import { checkTimer, type CheckTimer } from './timer';

export type JobsConfig = Pick<Config, 'role' | 'redisUrl' | 'nodeId' | 'workerConcurrency' | 'sweepIntervalMs' | 'sweepGraceMs'>;

export interface Jobs {
  /** The store every writer must use: its commits plan the written objects' next checks. */
  store: Store;
  /** Readiness probes: a node that runs checks is not ready while it cannot reach Redis. */
  readinessChecks: (() => Promise<void>)[];
  /** Present in cluster mode on worker nodes. */
  queue: CheckQueue | null;
  sweeper: Sweeper | null;
  /** Present in single-node mode. */
  timer: CheckTimer | null;
  stop(): Promise<void>;
}

export interface JobsOptions {
  /** The kinds' check runners; the domain's table unless a test brings its own. */
  registry?: CheckRegistry;
  tuning?: QueueTuning;
  /** The in-process timer is wired but never wakes on its own: only its `tick()` runs checks (tests). */
  manualTimer?: boolean;
}

/**
 * next_check processing for the node's role (docs/architecture.md §Automatic transitions). With REDIS_URL: every node
 * plans delayed Bull jobs,
 * and ROLE=worker|all nodes also consume them and sweep for overdue objects. Without: ROLE=worker|all nodes
 * run an in-process timer. ROLE=api only plans. Bull and ioredis load only with REDIS_URL: a node without it (and
 * every test server) spares their start-up.
 */
export async function startJobs(config: JobsConfig, store: Store, clock: Clock, logger: Logger, options: JobsOptions = {}): Promise<Jobs> {
  const runs = config.role !== 'api';
  const log = logger.child({ component: 'next-check' });
  if (!config.redisUrl) {
    const ctx: CheckContext = { store: store, clock, logger: log, registry: options.registry };
    const timer = checkTimer(ctx, { pollIntervalMs: config.sweepIntervalMs, concurrency: config.workerConcurrency });
    const scheduled = schedulingStore(store, timer, log);
    ctx.store = scheduled;
    if (runs && !options.manualTimer) timer.start();
    return { store: scheduled, readinessChecks: [], queue: null, sweeper: null, timer: runs ? timer : null, stop: () => timer.stop() };
  }
  const { startQueueJobs } = await import('./queue-jobs');
  return startQueueJobs({ ...config, redisUrl: config.redisUrl }, store, clock, log, options);
}
