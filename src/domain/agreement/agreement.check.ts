import type { CheckRunner } from '../core/check-runner';
import { applyDueEvents } from '../core/events';
import { updateOf } from '../save-rules';
import { formatKyiv } from '../../time/kyiv';
import { agreementEvents, withAgreementNextCheck } from './agreement.events';
import type { AgreementDoc } from './agreement.types';

/**
 * The agreement's check (docs/frameworks.md §Agreement status machine; "CS-20115"): applies every event due by now
 * (agreement.events.ts), in order — the end of its period, suspended contracts' bans come due — then dates the
 * agreement and sets its next `next_check`. Nothing due → no change.
 */
export const agreementCheck: CheckRunner = async (_session, stored, now) => {
  const agreement = structuredClone(stored.doc as AgreementDoc);
  if (applyDueEvents(agreement, agreementEvents, now, undefined) === 0) return [];
  agreement.data.dateModified = formatKyiv(now);
  return [updateOf(stored, withAgreementNextCheck(agreement))];
};
