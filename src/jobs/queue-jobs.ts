import type { Logger } from 'pino';
import type { Store } from '../store/port';
import type { Clock } from '../time/clock';
import { bullScheduler } from './bull-scheduler';
import { openCheckQueue, type CheckQueue } from './check-queue';
import type { CheckContext } from './observed-check';
import { schedulingStore } from './scheduler';
import type { Jobs, JobsConfig, JobsOptions } from './start-jobs';
import { startSweeper, type Sweeper } from './sweeper';
import { startWorker } from './worker';

/** next_check processing with REDIS_URL (startJobs): delayed Bull jobs, and on worker nodes the worker and sweeper. */
export function startQueueJobs(
  config: JobsConfig & { redisUrl: string },
  store: Store,
  clock: Clock,
  log: Logger,
  options: JobsOptions,
): Jobs {
  const runs = config.role !== 'api';
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
  const ping = queue.client.ping();
  // A PING that loses the race may still reject later (a peer that is not Redis); that must not crash the node.
  ping.catch(() => undefined);
  await Promise.race([
    ping,
    delay(1000).then(() => {
      throw new Error('next_check queue: Redis did not answer PING within 1 s');
    }),
  ]);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
