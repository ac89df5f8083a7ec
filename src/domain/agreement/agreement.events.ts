/**
 * The agreement's state machine and its contracts', one place for all of it: every transition, what triggers it, the
 * file that applies it and the section that states the rule. Automatic transitions are the events below:
 * `next_check` is the earliest pending `due` (`withAgreementNextCheck`) and the check (agreement.check.ts) applies
 * whatever is due, from the same list (docs/frameworks.md §Agreement status machine).
 *
 * - (none) → active: the framework's first qualification activated; agreement.lifecycle.ts `newAgreement`, and each
 *   activation adds an active contract, `withContract` (docs/frameworks.md §Qualification status machine).
 * - active → terminated: event at `period.endDate`, the contracts keeping their statuses; here, `terminate`
 *   (docs/frameworks.md §Agreement status machine).
 * - active → terminated with `terminationDetails`: its framework found unsuccessful; framework/framework.check.ts
 *   (docs/frameworks.md §Framework status machine).
 * - active → active: its framework's `qualificationPeriod` changed, and with it `period.endDate` and the activation
 *   milestones; framework/framework-changes.ts (docs/frameworks.md §Framework changes).
 * - contract active → suspended: the framework owner's `ban` milestone; agreement-contracts.ts `addMilestone`
 *   (docs/frameworks.md §Agreement contracts and milestones).
 * - contract suspended → active, its ban `met`: event at the ban's `dueDate`; here, `liftBan`
 *   (docs/frameworks.md §Agreement contracts and milestones).
 * - contract active or suspended → terminated: the owner's activation milestone `met`; agreement-contracts.ts
 *   `changeMilestone` (docs/frameworks.md §Agreement contracts and milestones).
 */
import { formatKyiv } from '../../time/kyiv';
import { dueAt, nextCheckOf, type DueEvent } from '../core/events';
import { itemsOf } from '../core/items';
import type { AgreementContract, AgreementDoc, Milestone } from './agreement.types';

/** An automatic transition of an agreement, applied to its stored document. */
export type AgreementEvent = DueEvent<AgreementDoc>;

function terminate(agreement: AgreementDoc): void {
  agreement.data.status = 'terminated';
}

/** The contract active again, its ban `met`, both dated now, as is the agreement. */
const liftBan =
  (contractId: string, banId: string) =>
  (agreement: AgreementDoc, now: Date): void => {
    const stamp = formatKyiv(now);
    const contract = itemsOf(agreement.data, 'contracts').find((c) => c.id === contractId)!;
    const milestones = contract.milestones.map((m): Milestone =>
      m.id === banId ? { ...m, status: 'met', dateMet: stamp, dateModified: stamp } : m,
    );
    Object.assign(contract, { status: 'active', milestones, date: stamp, dateModified: stamp });
    agreement.data.dateModified = stamp;
  };

/** A suspended contract's last ban: the one that suspends it. */
function suspendingBan(contract: AgreementContract): Milestone | undefined {
  if (contract.status !== 'suspended') return undefined;
  return itemsOf(contract, 'milestones')
    .filter((m) => m.type === 'ban')
    .at(-1);
}

/**
 * The events of an active agreement: the end of its period, and the end of each suspended contract's ban. None in any
 * other status. A scheduled activation milestone is due with the period's end (both are the framework's
 * `qualificationPeriod.endDate`) and does nothing by itself.
 */
export function agreementEvents(agreement: AgreementDoc): AgreementEvent[] {
  const data = agreement.data;
  if (data.status !== 'active') return [];
  const bans = itemsOf(data, 'contracts').flatMap((contract) => {
    const ban = suspendingBan(contract);
    return ban ? [{ due: dueAt(ban.dueDate), apply: liftBan(contract.id, ban.id) }] : [];
  });
  return [{ due: dueAt(data.period.endDate), apply: terminate }, ...bans];
}

/** The agreement with `next_check` = its earliest event, removed when none is pending (docs/frameworks.md §Agreement status machine). */
export function withAgreementNextCheck(doc: AgreementDoc): AgreementDoc {
  const { next_check: _dropped, ...data } = doc.data;
  const next = nextCheckOf(agreementEvents(doc));
  return { ...doc, data: next ? { ...data, next_check: next } : data };
}
