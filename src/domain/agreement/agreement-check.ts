import type { CheckRunner } from '../core/checks';
import { updateOf, type ObjectDoc } from '../core/objects';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { withExpiredBansLifted } from './agreement-contracts';
import { withAgreementNextCheck } from './agreement-lifecycle';

/**
 * An active agreement ends when its period does, its contracts keeping their statuses (docs/frameworks.md §Agreement status machine;
 * "CS-20115"); before that, suspended contracts whose ban has come due are active again.
 */
export const agreementCheck: CheckRunner = async (_session, stored, now) => {
  const before = stored.doc as ObjectDoc;
  if (before.data.status !== 'active') return [];
  if (now.getTime() >= parseIsoDate(before.data.period.endDate)!.getTime()) {
    const data = { ...before.data, status: 'terminated', dateModified: formatKyiv(now) };
    return [updateOf(stored, withAgreementNextCheck({ ...before, data }))];
  }
  const lifted = withExpiredBansLifted(before, now);
  return lifted === before ? [] : [updateOf(stored, lifted)];
};
