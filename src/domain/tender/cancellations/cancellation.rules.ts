import { apiError } from '../../../http/errors';
import { inWindow, type CancellationRule, type TenderProcedure } from '../procedure';
import type { Cancellation, Tender } from '../tender.types';

/**
 * The checks of the reference's `CancellationStateMixing` (release `RELEASE_2020_04_19` flow), each named after
 * its own, in the order it runs them (docs/tenders.md §Cancellations).
 */

/**
 * `validate_cancellation_in_allowed_tender_status`: in the procedure's `cancellations` window (the reference's
 * tender state's statuses but its `terminated_statuses` and `cancellation_forbidden_statuses`).
 */
export function cancellationInAllowedTenderStatus(procedure: Pick<TenderProcedure, 'windows'>, tender: Tender): void {
  if (!inWindow(procedure, 'cancellations', tender.status)) {
    throw apiError(403, `Can't perform cancellation in current (${tender.status}) tender status`);
  }
}

/** `validate_cancellation_of_active_lot`. */
export function cancellationOfActiveLot(tender: Tender, cancellation: Cancellation): void {
  const lot = (tender.lots ?? []).find((l) => l.id === cancellation.relatedLot);
  if (lot && lot.status !== 'active') throw apiError(403, 'Can perform cancellation only in active lot status');
}

/** `validate_cancellation_status_draft_pending`: only a draft (or pending) cancellation changes. */
export function cancellationStatusDraftPending(cancellation: Cancellation): void {
  if (!['draft', 'pending'].includes(cancellation.status)) {
    throw apiError(403, `Can't update cancellation in current (${cancellation.status}) status`);
  }
}

/** `validate_possible_reason_types`: required, and one of the procedure's list (printed as Python prints a list). */
export function possibleReasonType(cancellation: Pick<Cancellation, 'reasonType'>, reasonTypes: string[]): void {
  const { reasonType } = cancellation;
  if (!reasonType) throw apiError(422, ['This field is required'], { name: 'reasonType' });
  if (!reasonTypes.includes(reasonType)) {
    throw apiError(422, [`Value must be one of [${reasonTypes.map((r) => `'${r}'`).join(', ')}]`], { name: 'reasonType' });
  }
}

/**
 * `validate_cancellation_in_complaint_period` (competitiveOrdering; belowThreshold skips it): no cancellation of the
 * tender, or of a lot, while an award of it is in its complaint period (award stand-still).
 */
export const cancellationOutsideAwardComplaintPeriod: CancellationRule = (cancellation, tender, { now, operation }) => {
  const lotId = cancellation.relatedLot;
  const standingStill = (tender.awards ?? []).some((award) => {
    const period = award.complaintPeriod;
    if ((lotId && lotId !== award.lotID) || !period?.startDate || !period.endDate) return false;
    return Date.parse(period.startDate) < now.getTime() && now.getTime() < Date.parse(period.endDate);
  });
  if (standingStill) throw apiError(403, `Cancellation can't be ${operation} when exists active complaint period`);
};

/**
 * `validate_not_only_unsuccessful_awards_or_qualifications` (competitiveOrdering): no cancellation of a lot (or of a
 * tender without lots) whose awards are all unsuccessful or cancelled; cancelling a tender with lots checks each
 * active lot.
 */
export const notOnlyUnsuccessfulAwards: CancellationRule = (cancellation, tender) => {
  const awards = tender.awards ?? [];
  const allFailed = (lotId: string | undefined) => {
    const statuses = awards.filter((a) => a.lotID === lotId).map((a) => a.status);
    return statuses.length > 0 && statuses.every((s) => s === 'unsuccessful' || s === 'cancelled');
  };
  const lots = tender.lots ?? [];
  const checked =
    lots.length && !cancellation.relatedLot ? lots.filter((l) => l.status === 'active').map((l) => l.id) : [cancellation.relatedLot];
  if (checked.some(allFailed)) throw apiError(403, "Can't perform cancellation if all awards are unsuccessful");
};
