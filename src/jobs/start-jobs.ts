import type { Logger } from 'pino';
import type { Config } from '../config';
import type { CheckRegistry } from '../domain/core/checks';
import type { Store } from '../store/port';
import type { Clock } from '../time/clock';
import { bullScheduler } from './bull-scheduler';
import { openCheckQueue, type CheckQueue, type QueueTuning } from './check-queue';
import type { CheckContext } from './observed-check';
import { schedulingStore } from './scheduler';
import { startSweeper, type Sweeper } from './sweeper';
import { checkTimer, type CheckTimer } from './timer';
import { startWorker } from './worker';

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
 * run an in-process timer. ROLE=api only plans.
 */
export function startJobs(config: JobsConfig, store: Store, clock: Clock, logger: Logger, options: JobsOptions = {}): Jobs {
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
  const queue = openCheckQueue(config.redisUrl, options.tuning);
  const scheduler = bullScheduler(queue, clock);
  const scheduled = schedulingStore(store, scheduler, log);
  const ctx: CheckContext = { store: scheduled, clock, logger: log, registry: options.registry };
  let sweeper: Sweeper | null = null;
  let workerStarted: Promise<void> = Promise.resolve();
  if (runs) {
    workerStarted = startWorker(queue, ctx, config.workerConcurrency).catch(() => undefined);
    sweeper = startSweeper(queue, ctx, {
      nodeId: config.nodeId,
      intervalMs: config.sweepIntervalMs,
      graceMs: config.sweepGraceMs,
      concurrency: config.workerConcurrency,
    });
  }
  // ioredis reports every reconnect attempt; one line per 10 s is enough to see an outage.
  let lastErrorLog = 0;
  queue.on('error', (err) => {
    if (Date.now() - lastErrorLog < 10_000) return;
    lastErrorLog = Date.now();
    log.warn({ err }, 'next_check queue error');
  });
  return {
    store: scheduled,
    readinessChecks: runs ? [() => redisReachable(queue)] : [],
    queue,
    sweeper,
    timer: null,
    async stop() {
      await sweeper?.stop();
      // Plans still in flight when Redis is gone would wait forever; the sweeper heals whatever they miss.
      await Promise.race([scheduler.idle(), delay(2000)]);
      await Promise.race([workerStarted, delay(2000)]);
      await Promise.race([queue.close().catch(() => undefined), delay(5000)]);
    },
  };
}

async function redisReachable(queue: CheckQueue): Promise<void> {
  if (queue.client.status !== 'ready') throw new Error(`next_check queue: Redis is ${queue.client.status}`);
  await Promise.race([
    queue.client.ping(),
    delay(1000).then(() => {
      throw new Error('next_check queue: Redis did not answer PING within 1 s');
    }),
  ]);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
