import { QUEUE_NAME, type CheckQueue } from './check-queue';
import { queueDepth, sweeperRecoveries } from './job-metrics';
import { observedCheck, type CheckContext } from './observed-check';
import { runLimited } from './run-limited';

export interface SweeperOptions {
  nodeId: string;
  intervalMs: number;
  /** Only objects this far past their next_check are swept, so the sweeper does not race healthy jobs. */
  graceMs: number;
  concurrency: number;
  /** Objects taken per store query. */
  batch?: number;
}

export interface Sweeper {
  /** One sweep now; resolves to the number of objects checked (0 when another node holds the lock). */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

const LOCK_KEY = `bull:${QUEUE_NAME}:sweeper-lock`;
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Every `intervalMs`, the node holding a Redis lock (SET NX PX, one node at a time) checks every object whose
 * next_check passed more than `graceMs` ago: a job lost to a Redis flush, a failed schedule or a give-up is
 * healed within an interval. Each node also refreshes the queue-depth gauge.
 */
export function startSweeper(queue: CheckQueue, ctx: CheckContext, options: SweeperOptions): Sweeper {
  const batch = options.batch ?? 100;
  let running: Promise<number> | null = null;

  async function refreshDepth() {
    const counts = await queue.getJobCounts();
    for (const state of ['waiting', 'delayed', 'active', 'failed'] as const) queueDepth.set({ state }, counts[state]);
  }

  async function sweepLocked(): Promise<number> {
    const deadline = Date.now() + options.intervalMs / 2;
    let checked = 0;
    for (;;) {
      const due = await ctx.store.due(ctx.clock.now().getTime() - options.graceMs, batch);
      const done = await runLimited(due, options.concurrency, async ({ kind, id }) => {
        const { outcome } = await observedCheck(ctx, 'sweeper', kind, id);
        if (outcome === 'applied') {
          sweeperRecoveries.inc({ kind });
          ctx.logger.warn({ kind, id }, 'sweeper applied an overdue next_check');
        }
      });
      checked += done;
      // Stop on a partial page, on a page where nothing moved (failures stay due for the next sweep), or before
      // the lock can expire under us.
      if (due.length < batch || done === 0 || Date.now() > deadline) return checked;
    }
  }

  async function sweepOnce(): Promise<number> {
    await refreshDepth();
    const token = `${options.nodeId}:${process.pid}:${Math.random()}`;
    const locked = await queue.client.set(LOCK_KEY, token, 'PX', options.intervalMs, 'NX');
    if (locked !== 'OK') return 0;
    try {
      return await sweepLocked();
    } finally {
      await queue.client.eval(RELEASE, 1, LOCK_KEY, token);
    }
  }

  const sweep = () => {
    running ??= sweepOnce().finally(() => {
      running = null;
    });
    return running;
  };

  const timer = setInterval(() => {
    sweep().catch((err) => ctx.logger.warn({ err }, 'sweep failed'));
  }, options.intervalMs);
  timer.unref();

  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
