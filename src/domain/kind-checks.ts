import type { StoreSession, Stored } from '../store/port';
import type { CheckRegistry } from './core/check-runner';
import { agreementCheck } from './agreement/agreement.check';
import { frameworkCheck } from './framework/framework.check';
import { tenderCheck } from './tender/tender.check';

/**
 * Every kind's automatic transitions, in one table (each kind's map of them: tender/tender.events.ts,
 * framework/framework.events.ts, agreement/agreement.events.ts): the worker, the timer and the chronograph call these.
 */
export const checks: CheckRegistry = {
  frameworks: frameworkCheck,
  agreements: agreementCheck,
  tenders: tenderCheck,
};

/**
 * Runs the kind's checks on `stored` as of `now` and commits what they change, with the revisions read
 * (docs/architecture.md §Automatic transitions). Returns the object as it is afterwards. A lost race throws
 * StoreConflict, an unreachable store StoreUnavailable.
 */
export async function applyChecks(
  session: StoreSession,
  stored: Stored,
  now: Date,
  registry: CheckRegistry = checks,
): Promise<{ stored: Stored; applied: boolean }> {
  const runner = registry[stored.kind];
  const changes = runner ? await runner(session, stored, now) : [];
  if (changes.length === 0) return { stored, applied: false };
  const committed = await session.commit(changes);
  const self = committed.find((s) => s.kind === stored.kind && s.id === stored.id);
  return { stored: self ?? stored, applied: true };
}
