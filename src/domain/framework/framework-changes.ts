import { apiError } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { dateMathOf } from '../../time/acceleration';
import { qualificationPeriodChangeBounds } from '../../time/framework-periods';
import { epochMs as at, formatKyiv } from '../../time/kyiv';
import { withAgreementNextCheck } from '../agreement';
import type { AgreementDoc } from '../agreement/agreement.types';
import { newId } from '../core/ids';
import { itemsOf } from '../core/items';
import { type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { validated } from '../core/validation';
import { withNextCheck } from './framework.events';
import { withActivePeriods } from './framework.periods';
import { frameworkChangeSchema, PERIOD_CHANGE_CAUSES, type FrameworkChangeRequest } from './framework.schema';
import type { Framework, FrameworkChange, FrameworkDoc } from './framework.types';

const periodError = (description: string) => apiError(422, description, { name: 'modifications.qualificationPeriod' });

/** The checks of a requested qualification-period change, in the reference's order (docs/frameworks.md §Framework changes). */
function checkChange(framework: Framework, change: FrameworkChangeRequest, now: Date): void {
  const required = PERIOD_CHANGE_CAUSES[change.rationaleType];
  if (required !== null && change.rationale !== required) {
    throw apiError(422, ['Value should be from dictionary `framework_period_change_causes`.'], { name: 'rationale' });
  }
  const requested = change.modifications.qualificationPeriod;
  if (!requested || Object.keys(requested).length === 0)
    throw apiError(422, 'Framework modifications are empty', { name: 'modifications' });
  const current = framework.qualificationPeriod;
  if (requested.startDate !== undefined && at(requested.startDate) !== at(current.startDate!)) {
    throw periodError('Forbidden to change qualification period start date');
  }
  if (requested.endDate === undefined || at(requested.endDate) === at(current.endDate)) {
    throw apiError(422, 'No changes detected between framework and current modifications');
  }
  const bounds = qualificationPeriodChangeBounds(now, dateMathOf(framework));
  if (at(requested.endDate) < bounds.earliest.getTime()) {
    throw periodError("qualificationPeriod.endDate couldn't be less than 30 full calendar days from now");
  }
  if (at(requested.endDate) > bounds.latest.getTime()) {
    throw periodError("qualificationPeriod.endDate couldn't be more than 1461 full calendar days from now");
  }
}

/** The framework's agreement follows the new end: its period, the activation milestones it schedules, `next_check`. */
function agreementFollowing(agreement: AgreementDoc, framework: Framework, stamp: string): AgreementDoc {
  const end = framework.qualificationPeriod.endDate;
  const contracts = itemsOf(agreement.data, 'contracts').map((contract) => ({
    ...contract,
    milestones: itemsOf(contract, 'milestones').map((m) =>
      m.type === 'activation' && m.status === 'scheduled' ? { ...m, dueDate: end, dateModified: stamp } : m,
    ),
    dateModified: stamp,
  }));
  const data = {
    ...agreement.data,
    period: { ...agreement.data.period, endDate: end },
    procuringEntity: framework.procuringEntity,
    contracts,
    dateModified: stamp,
  };
  return withAgreementNextCheck({ ...agreement, data });
}

/**
 * `POST /frameworks/{id}/changes` by the owner of an active framework: the qualification period's new end, its
 * periods and `next_check` recomputed, and the agreement (if any) moved with it, all in one commit.
 */
export async function addFrameworkChange(
  session: StoreSession,
  stored: StoredObject<FrameworkDoc>,
  body: Record<string, unknown>,
  now: Date,
): Promise<FrameworkChange> {
  const framework = stored.doc;
  const { status } = framework.data;
  if (status !== 'active') throw apiError(403, `Can't add change in current (${status}) framework status`);
  const input = validated<FrameworkChangeRequest>(frameworkChangeSchema, body);
  checkChange(framework.data, input, now);
  const stamp = formatKyiv(now);
  const previous = framework.data.qualificationPeriod;
  const change: FrameworkChange = { ...input, id: newId(), previous: { qualificationPeriod: previous }, date: stamp, dateModified: stamp };
  const changed: FrameworkDoc = {
    ...framework,
    data: {
      ...framework.data,
      qualificationPeriod: { ...previous, endDate: input.modifications.qualificationPeriod.endDate! },
      changes: [...(framework.data.changes ?? []), change],
      dateModified: stamp,
    },
  };
  const after = withNextCheck(withActivePeriods(changed, now));
  const writes = [updateOf(stored, after, ['changes'])];
  const agreementId = framework.data.agreementID;
  const agreement = agreementId ? await session.get('agreements', agreementId) : null;
  if (agreement) writes.push(updateOf(agreement, agreementFollowing(agreement.doc as AgreementDoc, after.data, stamp)));
  await session.commit(writes);
  return change;
}
