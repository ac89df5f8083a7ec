import type { Logger } from 'pino';
import type { Change, Kind, Store, StoreSession } from '../store/port';
import { scheduleFailures } from './job-metrics';

/** Plans an object's next check: at `nextCheckMs`, replacing any earlier plan; null cancels it. */
export interface Scheduler {
  schedule(kind: Kind, id: string, nextCheckMs: number | null): Promise<void>;
}

/**
 * The store as the app and the jobs use it: after every successful commit, each written object's next_check
 * (from the change's index columns, so nothing is recomputed) goes to the scheduler. Scheduling is not awaited
 * by the writer: a commit never fails or waits because Redis is slow or down, and the sweeper heals a plan that
 * was lost.
 */
export function schedulingStore(store: Store, scheduler: Scheduler, logger: Logger): Store {
  const planAfter = (changes: Change[]) => {
    for (const change of changes) {
      scheduler.schedule(change.kind, change.id, change.index.nextCheck).catch((err) => {
        scheduleFailures.inc();
        logger.warn({ err, kind: change.kind, id: change.id }, 'next_check not scheduled');
      });
    }
  };
  return {
    engine: store.engine,
    transfer: store.transfer,
    due: (nowMs, limit) => store.due(nowMs, limit),
    ping: () => store.ping(),
    close: () => store.close(),
    session(token, author) {
      const session = store.session(token, author);
      return {
        ...session,
        async commit(changes, numbering) {
          const stored = await session.commit(changes, numbering);
          planAfter(changes);
          return stored;
        },
      } satisfies StoreSession;
    },
  };
}
