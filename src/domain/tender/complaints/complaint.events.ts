import { dueAt, type DueEvent } from '../../core/events';
import { itemsOf } from '../../core/items';
import type { Period } from '../../core/shapes';
import type { Cancellation, Complaint, Tender, TenderConfig } from '../tender.types';
import { anyHolds } from './complaint-holds';

/**
 * The complaints' automatic transitions (docs/tenders.md §Complaints; the reference's `complaint_events` and
 * `cancellation_events`, `tender/core/procedure/state/chronograph.py`), listed with the tender's (tender.events.ts):
 * - an unpaid `draft` becomes `mistaken` (`complaintPeriodEnded`) when its host's complaint period ends — the
 *   tender's, the award's or the cancellation's;
 * - a `pending` cancellation with a complaint period takes effect at its end, once none of its complaints holds it.
 */
type TenderEvent = DueEvent<Tender, TenderConfig>;

/** `draft_complaint_handler`: the complaint the event names, found again in the tender it is applied to. */
const expire =
  (find: (tender: Tender) => Complaint[] | undefined, id: string): TenderEvent['apply'] =>
  (tender, now) => {
    const complaint = find(tender)?.find((c) => c.id === id);
    if (!complaint || complaint.status !== 'draft') return;
    complaint.status = 'mistaken';
    complaint.rejectReason = 'complaintPeriodEnded';
    complaint.date = dueAt(now);
  };

const draftsOf = (period: Period | undefined, complaints: Complaint[] | undefined, find: (tender: Tender) => Complaint[] | undefined) =>
  period?.endDate
    ? (complaints ?? []).filter((c) => c.status === 'draft').map((c) => ({ due: dueAt(period.endDate!), apply: expire(find, c.id) }))
    : [];

/** Every draft complaint's expiry, at its host's complaint period end. */
export function draftExpiries(tender: Tender): TenderEvent[] {
  return [
    ...draftsOf(tender.complaintPeriod, tender.complaints, (t) => t.complaints),
    ...itemsOf(tender, 'awards').flatMap((a) =>
      draftsOf(a.complaintPeriod, a.complaints, (t) => t.awards?.find((x) => x.id === a.id)?.complaints),
    ),
    ...itemsOf(tender, 'cancellations').flatMap((c) =>
      draftsOf(c.complaintPeriod, c.complaints, (t) => t.cancellations?.find((x) => x.id === c.id)?.complaints),
    ),
  ];
}

/**
 * `cancellation_compl_period_end_handler`, due at the end of each pending cancellation's complaint period unless a
 * complaint holds it; `takeEffect` makes it active and cancels (cancellations/cancel.ts).
 */
export function cancellationPeriodEnds(
  tender: Tender,
  takeEffect: (tender: Tender, cancellation: Cancellation, now: Date) => void,
): TenderEvent[] {
  return itemsOf(tender, 'cancellations')
    .filter((c) => c.status === 'pending' && c.complaintPeriod?.endDate && !anyHolds(c.complaints))
    .map((c) => ({
      due: dueAt(c.complaintPeriod!.endDate!),
      apply: (t, now) => {
        const cancellation = t.cancellations?.find((x) => x.id === c.id);
        if (cancellation?.status === 'pending') takeEffect(t, cancellation, now);
      },
    }));
}

/**
 * Whether the tender's phase waits (`has_unanswered_tender_complaints`, `cancellation_blocks_tender`): a complaint
 * of the tender, or of one of its active lots, holds it; or a cancellation of the whole tender is pending.
 */
export function tenderWaits(tender: Tender): boolean {
  const activeLots = new Set(
    itemsOf(tender, 'lots')
      .filter((l) => l.status === 'active')
      .map((l) => l.id),
  );
  const ofLiveParts = itemsOf(tender, 'complaints').filter((c) => !c.relatedLot || activeLots.has(c.relatedLot));
  return anyHolds(ofLiveParts) || itemsOf(tender, 'cancellations').some((c) => c.status === 'pending' && !c.relatedLot);
}
