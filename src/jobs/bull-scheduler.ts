import type { Kind } from '../store/port';
import type { Clock } from '../time/clock';
import { jobIdOf, QUEUE_NAME, type CheckQueue } from './check-queue';
import type { Scheduler } from './scheduler';

/** Redis hash `kind:id` → the id of the object's pending job, so a re-save can find and replace it. */
const PLANNED_KEY = `bull:${QUEUE_NAME}:planned`;

/**
 * Plans checks as delayed Bull jobs. The job id carries the planned instant (`kind:id:ms`): the worker's own
 * commit plans the next check while its job is still active, and Bull would silently drop an add whose id
 * is still taken. Re-saving with the same next_check adds nothing; a new one removes the pending job first;
 * null removes it. Plans for one object are applied in order within a node.
 */
export function bullScheduler(queue: CheckQueue, clock: Clock): Scheduler & { idle(): Promise<void> } {
  const inFlight = new Map<string, Promise<void>>();

  async function replace(kind: Kind, id: string, dueAt: number | null) {
    const key = `${kind}:${id}`;
    const jobId = dueAt === null ? null : jobIdOf(kind, id, dueAt);
    const redis = queue.client;
    const swap = redis.multi().hget(PLANNED_KEY, key);
    const results = await (jobId ? swap.hset(PLANNED_KEY, key, jobId) : swap.hdel(PLANNED_KEY, key)).exec();
    const previous = results?.[0]?.[1] as string | null;
    if (previous && previous !== jobId) {
      // An active job is locked and cannot be removed; it finds the object not due and finishes.
      await (await queue.getJob(previous))?.remove().catch(() => undefined);
    }
    if (jobId && dueAt !== null) {
      await queue.add({ kind, id, dueAt }, { jobId, delay: Math.max(0, dueAt - clock.now().getTime()) });
    }
  }

  return {
    schedule(kind, id, dueAt) {
      const key = `${kind}:${id}`;
      const run = (inFlight.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => replace(kind, id, dueAt));
      inFlight.set(key, run);
      const forget = () => {
        if (inFlight.get(key) === run) inFlight.delete(key);
      };
      run.then(forget, forget);
      return run;
    },
    async idle() {
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
