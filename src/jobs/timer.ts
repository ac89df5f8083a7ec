import { observedCheck, type CheckContext } from './observed-check';
import { runLimited } from './run-limited';
import type { Scheduler } from './scheduler';

export interface TimerOptions {
  /** How often the store is polled for due objects, whatever was scheduled. */
  pollIntervalMs: number;
  concurrency: number;
  /** Delay before a tick that had failures runs again. */
  retryDelayMs?: number;
  batch?: number;
}

export interface CheckTimer extends Scheduler {
  /** Runs every check due at the clock's "now"; resolves to the number of objects checked. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Single-node mode (no REDIS_URL): after each tick sleeps until the earliest next_check in the store or the next
 * poll, whichever is first, and wakes early when a commit on this node schedules an earlier one. Time comes from
 * the injected clock; tests call `tick()`.
 */
export function checkTimer(ctx: CheckContext, options: TimerOptions): CheckTimer {
  const batch = options.batch ?? 100;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  let wake: NodeJS.Timeout | null = null;
  let wakeAt = Infinity;
  let started = false;
  let running: Promise<number> | null = null;

  function arm(at: number) {
    if (!started || at >= wakeAt) return;
    if (wake) clearTimeout(wake);
    wakeAt = at;
    // Longer delays overflow setTimeout; the poll comes first anyway.
    const delay = Math.min(Math.max(0, at - ctx.clock.now().getTime()), options.pollIntervalMs);
    wake = setTimeout(fire, delay);
    wake.unref();
  }

  function fire() {
    wake = null;
    wakeAt = Infinity;
    tick()
      .then(nextWakeAt)
      .then(arm, (err) => {
        ctx.logger.warn({ err }, 'next_check timer tick failed');
        arm(ctx.clock.now().getTime() + retryDelayMs);
      });
  }

  /** The earliest next_check before the next poll (from the store, so other processes' saves count too). */
  async function nextWakeAt(): Promise<number> {
    const now = ctx.clock.now().getTime();
    const [earliest] = await ctx.store.due(now + options.pollIntervalMs, 1);
    if (!earliest) return now + options.pollIntervalMs;
    // Still due after a tick means its check failed: try again shortly.
    return earliest.nextCheck <= now ? now + retryDelayMs : earliest.nextCheck;
  }

  async function runDue(): Promise<number> {
    let checked = 0;
    for (;;) {
      const due = await ctx.store.due(ctx.clock.now().getTime(), batch);
      const done = await runLimited(due, options.concurrency, ({ kind, id }) => observedCheck(ctx, 'timer', kind, id));
      checked += done;
      if (due.length < batch || done === 0) return checked;
    }
  }

  function tick(): Promise<number> {
    // One tick at a time; a call during a tick waits for it and then runs its own.
    const previous = running ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(runDue);
    running = next;
    next
      .finally(() => {
        if (running === next) running = null;
      })
      .catch(() => undefined);
    return next;
  }

  return {
    tick,
    async schedule(_kind, _id, nextCheckMs) {
      if (nextCheckMs !== null) arm(nextCheckMs);
    },
    start() {
      started = true;
      arm(ctx.clock.now().getTime());
    },
    async stop() {
      started = false;
      if (wake) clearTimeout(wake);
      wake = null;
      wakeAt = Infinity;
      await running?.catch(() => undefined);
    },
  };
}
