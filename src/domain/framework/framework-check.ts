import type { CheckRunner } from '../core/checks';
import { updateOf, type ObjectDoc } from '../core/objects';
import type { Change } from '../../store/port';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { dateMathOf } from '../../time/acceleration';
import { frameworkSubmissionsCheckDate } from '../../time/framework-periods';
import { withAgreementNextCheck } from '../agreement/agreement-lifecycle';
import { activatedSubmissionIds } from '../submission/submission-lifecycle';
import { withNextCheck } from './framework-periods';
import { frameworkProcedure } from './procedures';

/** The agreement's `terminationDetails` when its framework fails for lack of submissions (reference text). */
export const TOO_FEW_SUBMISSIONS = 'Відмінено електронною системою через недостатню кількість заявок';

/**
 * The reference chronograph's framework checks (docs/frameworks.md §Framework status machine): 15 days after the period starts, too
 * few submissions make the framework unsuccessful (and terminate its agreement), else it is marked successful;
 * after the qualification period ends it is complete. A check is due once now has reached its date.
 */
export const frameworkCheck: CheckRunner = async (session, stored, now) => {
  const before = stored.doc as ObjectDoc;
  if (before.data.status !== 'active') return [];
  const at = now.getTime();
  const stamp = formatKyiv(now);
  let after: ObjectDoc = before;
  const writes: Change[] = [];
  if (
    !before.successful &&
    at >= frameworkSubmissionsCheckDate(parseIsoDate(before.data.period.startDate)!, dateMathOf(before.data)).getTime()
  ) {
    // Every activated submission is active or complete: none of them is draft or deleted.
    if (activatedSubmissionIds(before).length < frameworkProcedure(before.data.frameworkType).minSubmissions) {
      after = { ...after, data: { ...after.data, status: 'unsuccessful' } };
      const agreementStored = before.data.agreementID ? await session.get('agreements', before.data.agreementID) : null;
      if (agreementStored) {
        const agreement = agreementStored.doc as ObjectDoc;
        const terminated = { ...agreement.data, status: 'terminated', terminationDetails: TOO_FEW_SUBMISSIONS, dateModified: stamp };
        writes.push(updateOf(agreementStored, withAgreementNextCheck({ ...agreement, data: terminated })));
      }
    } else {
      after = { ...after, successful: true };
    }
  }
  if (after.data.status === 'active' && at >= parseIsoDate(before.data.qualificationPeriod.endDate)!.getTime()) {
    after = { ...after, data: { ...after.data, status: 'complete' } };
  }
  if (after === before) return [];
  after = withNextCheck(after);
  after.data.dateModified = stamp;
  return [updateOf(stored, after), ...writes];
};
