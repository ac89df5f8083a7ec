import type { AwardPolicy, TenderEvent } from '../procedure';
import { anyHolds } from '../complaints/complaint-holds';
import { setTenderStatus } from '../tender-status';
import type { Award, Tender, TenderConfig, TenderContract } from '../tender.types';

/**
 * How awarding ends, as the spec-era reference's `check_tender_lot_status`, `awarded_complaint_handler` and the
 * contract state's `check_tender_status` (docs/tenders.md §Awards, §Contracts of a tender): a lot (or the tender)
 * whose awarding failed is unsuccessful once its stand-still is over; one whose winner's contract is signed is
 * complete; the tender follows its lots.
 */

const awardsOf = (t: Tender, lotId?: string): Award[] => (t.awards ?? []).filter((a) => a.lotID === lotId);

/** `awarding_is_unsuccessful`: the last award refused (in order), or none pending or active (without order). */
export function awardingIsUnsuccessful(awards: Award[], config: TenderConfig): boolean {
  if (config.hasAwardingOrder === false) return !awards.some((a) => ['active', 'pending'].includes(a.status));
  return awards.at(-1)?.status === 'unsuccessful';
}

/** The latest end of the awards' stand-stills, if any has one. */
function standStillEnd(awards: Award[]): string | undefined {
  const ends = awards.map((a) => a.complaintPeriod?.endDate).filter((end): end is string => !!end);
  return ends.sort((a, b) => Date.parse(a) - Date.parse(b)).at(-1);
}

/** `contracts_allow_to_complete`: none pending and one active. */
const contractsAllowToComplete = (contracts: TenderContract[]) =>
  !contracts.some((c) => c.status === 'pending') && contracts.some((c) => c.status === 'active');

/** The contracts of the lot's winning award(s): the last award with awarding order, every active one without. */
function winnersContracts(t: Tender, awards: Award[], config: TenderConfig): TenderContract[] {
  const winners = new Set(
    (config.hasAwardingOrder === false
      ? awards.filter((a) => a.status === 'active')
      : awards.slice(-1).filter((a) => a.status === 'active')
    ).map((a) => a.id),
  );
  return (t.contracts ?? []).filter((c) => winners.has(c.awardID));
}

/** `check_tender_lot_status`: each active lot to `unsuccessful` or `complete` when its awarding is over. */
function checkTenderLotStatus(t: Tender, now: Date, config: TenderConfig, policy: AwardPolicy): void {
  for (const lot of t.lots ?? []) {
    if (lot.status !== 'active') continue;
    const awards = awardsOf(t, lot.id);
    if (awards.length === 0) continue;
    const end = standStillEnd(awards);
    if (end && now.getTime() < Date.parse(end) && !policy.skipStandStill) continue;
    if (awardingIsUnsuccessful(awards, config)) lot.status = 'unsuccessful';
    else if (contractsAllowToComplete(winnersContracts(t, awards, config))) lot.status = 'complete';
  }
}

/** `switch_status`: the tender as its lots: all cancelled, all failed, or all over with one complete. */
export function switchStatus(t: Tender, now: Date): void {
  const statuses = new Set<string>((t.lots ?? []).map((l) => l.status));
  const only = (...allowed: string[]) => [...statuses].every((s) => allowed.includes(s));
  if (statuses.size === 1 && statuses.has('cancelled')) setTenderStatus(t, 'cancelled', now);
  else if (only('unsuccessful', 'cancelled')) setTenderStatus(t, 'unsuccessful', now);
  else if (only('complete', 'unsuccessful', 'cancelled')) setTenderStatus(t, 'complete', now);
}

/**
 * `check_tender_status` after an award's stand-still or a contract's signature: with lots, each lot's and then the
 * tender's status; without, `unsuccessful` when awarding failed and its stand-still is over, `complete` when the
 * contracts allow it.
 */
export function checkTenderStatus(t: Tender, now: Date, config: TenderConfig, policy: AwardPolicy): void {
  if (t.lots?.length) {
    checkTenderLotStatus(t, now, config, policy);
    switchStatus(t, now);
    return;
  }
  const awards = awardsOf(t);
  const end = standStillEnd(awards);
  // At its end (not only after it, as the reference's `<`) so the event due then always takes effect.
  if (awardingIsUnsuccessful(awards, config) && (!end || Date.parse(end) <= now.getTime())) setTenderStatus(t, 'unsuccessful', now);
  if (contractsAllowToComplete(t.contracts ?? [])) setTenderStatus(t, 'complete', now);
}

/**
 * The awarding events (`lots_qualification_events`, `awarded_events`): when the awarding of a lot (or, in the
 * awarded phase, `whole`, of the tender without lots) failed, the end of its awards' stand-still runs `check_tender_status`.
 */
export const awardingEvents =
  (policy: AwardPolicy, whole: boolean) =>
  (t: Tender): TenderEvent[] => {
    const groups: Award[][] = t.lots?.length
      ? t.lots.filter((l) => l.status === 'active').map((l) => awardsOf(t, l.id))
      : whole
        ? [awardsOf(t)]
        : [];
    const apply: TenderEvent['apply'] = (tender, now, config) => checkTenderStatus(tender, now, config, policy);
    // Without the config at hand, a failed awarding is one with no award pending or active: the same, in either
    // order, as `awarding_is_unsuccessful`, since an ordered awarding makes a new award only after the last is decided.
    return groups.flatMap((awards) => {
      // A complaint of one of its awards holds the lot's end (docs/tenders.md §Complaints: what a complaint holds).
      if (awards.some((a) => anyHolds(a.complaints))) return [];
      const failed = awards.length > 0 && !awards.some((a) => ['active', 'pending'].includes(a.status));
      const end = failed ? standStillEnd(awards) : undefined;
      return end ? [{ due: end, apply }] : [];
    });
  };
