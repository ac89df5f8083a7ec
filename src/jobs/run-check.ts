import { applyChecks, checks as domainChecks } from '../domain/kind-checks';
import type { CheckRegistry } from '../domain/core/check-runner';
import { indexOf, type ObjectDoc } from '../domain/core/objects';
import type { Kind, Store } from '../store/port';
import type { Clock } from '../time/clock';

/** What a run did: `not-due` and `missing` are normal for a job that fires late, twice, or after a change. */
export type CheckOutcome = 'applied' | 'unchanged' | 'not-due' | 'missing';

export interface CheckResult {
  outcome: CheckOutcome;
  /** The object's next_check (epoch ms) when the run loaded it; null when it had none. */
  dueAt: number | null;
}

/**
 * The one entry point of the worker, the sweeper and the timer: loads the object and, if its next_check has
 * come, applies its checks. Conflicts and store errors are thrown so the caller retries; a retry reloads the
 * object, so it never applies a transition twice.
 */
export async function runCheck(
  store: Store,
  kind: Kind,
  id: string,
  clock: Clock,
  registry: CheckRegistry = domainChecks,
): Promise<CheckResult> {
  // Automatic transitions are the chronograph's changes, as the reference records them.
  const session = store.session(undefined, 'chronograph');
  const stored = await session.get(kind, id);
  if (!stored) return { outcome: 'missing', dueAt: null };
  const dueAt = indexOf(stored.doc as ObjectDoc).nextCheck;
  const now = clock.now();
  if (dueAt === null || dueAt > now.getTime()) return { outcome: 'not-due', dueAt };
  const { applied } = await applyChecks(session, stored, now, registry);
  return { outcome: applied ? 'applied' : 'unchanged', dueAt };
}
