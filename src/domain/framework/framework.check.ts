import type { CheckRunner } from '../core/check-runner';
import { applyDueEvents } from '../core/events';
import { updateOf } from '../save-rules';
import type { Change } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { withAgreementNextCheck } from '../agreement';
import type { AgreementDoc } from '../agreement/agreement.types';
import { frameworkEvents, withNextCheck } from './framework.events';
import type { FrameworkDoc } from './framework.types';

/** The agreement's `terminationDetails` when its framework fails for lack of submissions (reference text). */
export const TOO_FEW_SUBMISSIONS = 'Відмінено електронною системою через недостатню кількість заявок';

/**
 * The reference chronograph's framework checks (docs/frameworks.md §Framework status machine): applies every event
 * due by now (framework.events.ts), in order, then dates the framework and sets its next `next_check`; a framework
 * that became unsuccessful terminates its agreement in the same commit. Nothing due → no change.
 */
export const frameworkCheck: CheckRunner = async (session, stored, now) => {
  const framework = structuredClone(stored.doc as FrameworkDoc);
  if (applyDueEvents(framework, frameworkEvents, now, undefined) === 0) return [];
  const stamp = formatKyiv(now);
  const after = withNextCheck(framework);
  after.data.dateModified = stamp;
  const writes: Change[] = [updateOf(stored, after)];
  const agreementStored =
    after.data.status === 'unsuccessful' && after.data.agreementID ? await session.get('agreements', after.data.agreementID) : null;
  if (agreementStored) {
    const agreement = agreementStored.doc as AgreementDoc;
    const terminated = { ...agreement.data, status: 'terminated' as const, terminationDetails: TOO_FEW_SUBMISSIONS, dateModified: stamp };
    writes.push(updateOf(agreementStored, withAgreementNextCheck({ ...agreement, data: terminated })));
  }
  return writes;
};
