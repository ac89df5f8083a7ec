import type { CheckRunner } from '../core/checks';
import { updateOf, type ObjectDoc } from '../core/objects';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { withAgreementNextCheck } from './agreement-lifecycle';

/** An active agreement ends when its period does; contracts keep their statuses (notes/frameworks.md §2.4, "CS-20115"). */
export const agreementCheck: CheckRunner = async (_session, stored, now) => {
  const before = stored.doc as ObjectDoc;
  if (before.data.status !== 'active' || now.getTime() < parseIsoDate(before.data.period.endDate)!.getTime()) return [];
  const data = { ...before.data, status: 'terminated', dateModified: formatKyiv(now) };
  return [updateOf(stored, withAgreementNextCheck({ ...before, data }))];
};
