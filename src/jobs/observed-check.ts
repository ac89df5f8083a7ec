import type { Logger } from 'pino';
import type { CheckRegistry } from '../domain/core/check-runner';
import { StoreConflict, type Kind, type Store } from '../store/port';
import type { Clock } from '../time/clock';
import { checkFailures, checkLatency, checkRuns } from './job-metrics';
import { runCheck, type CheckResult } from './run-check';

/** Who ran a check, for logs and metrics. */
export type CheckSource = 'queue' | 'sweeper' | 'timer';

export interface CheckContext {
  store: Store;
  clock: Clock;
  logger: Logger;
  registry?: CheckRegistry;
}

/** `runCheck` with its outcome counted and logged; failures are counted, logged and rethrown for a retry. */
export async function observedCheck(ctx: CheckContext, source: CheckSource, kind: Kind, id: string): Promise<CheckResult> {
  try {
    const result = await runCheck(ctx.store, kind, id, ctx.clock, ctx.registry);
    checkRuns.inc({ kind, source, outcome: result.outcome });
    if (result.outcome === 'applied' || result.outcome === 'unchanged') {
      const lateMs = ctx.clock.now().getTime() - (result.dueAt as number);
      checkLatency.observe({ kind, source }, Math.max(0, lateMs) / 1000);
      ctx.logger.info({ kind, id, source, outcome: result.outcome, lateMs }, 'next_check run');
    }
    return result;
  } catch (err) {
    const reason = isConflict(err) ? 'conflict' : 'error';
    checkFailures.inc({ kind, source, reason });
    ctx.logger[reason === 'conflict' ? 'info' : 'warn']({ kind, id, source, reason, err }, 'next_check run failed; will retry');
    throw err;
  }
}

const isConflict = (err: unknown) => err instanceof StoreConflict;
