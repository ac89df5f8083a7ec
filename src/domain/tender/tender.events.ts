/**
 * The tender's state machine, one place for all of it: every transition of the tender (and of its lots), what
 * triggers it, the file that applies it and the section that states the rule. Automatic transitions are events
 * `{ due, apply }` listed by the procedure's phase the tender is in (`phases[].ends.events`, procedures/*.ts;
 * `eventsOf`, procedure.ts): `next_check` is the earliest pending `due` (set on every save by `tenderChange`,
 * tender-aggregate.ts) and the check (tender.check.ts) applies whatever is due, from the same list
 * (docs/tenders.md §Tender events and next_check). Every status change goes through tender-status.ts. The statuses
 * below are those of the procedures' phases; the functions here ask the procedure for them (`statusOf`).
 *
 * - draft → active.enquiries (belowThreshold) or active.tendering (competitiveOrdering): the owner's PATCH to the
 *   procedure's activation state (`activeStatusOf`); tender.lifecycle.ts `saveTenderChange` (docs/tenders.md §Activation).
 * - active.enquiries → active.tendering: event at tenderPeriod.startDate, auctions planned; here, `enquiriesEnd`
 *   (docs/tenders.md §Tender events and next_check, §Auction period).
 * - active.tendering → active.auction, active.qualification or unsuccessful (lots: unsuccessful): event at
 *   tenderPeriod.endDate; here, `tenderingEnds`, applied by tendering-end.ts (docs/tenders.md §End of tendering).
 * - active.auction → active.qualification or active.awarded: the auction module's results; auction/auction.routes.ts
 *   then awards/add-next-award.ts (docs/tenders.md §Auction).
 * - active.qualification ⇄ active.awarded (lots: unsuccessful when no bid is left): the owner's award decisions;
 *   awards/award.lifecycle.ts then awards/add-next-award.ts (docs/tenders.md §Awards).
 * - active.qualification or active.awarded → unsuccessful (lots too): event at the end of a failed awarding's
 *   stand-still; awards/check-tender-status.ts `awardingEvents` (docs/tenders.md §Awards).
 * - active.awarded → complete (lots too): the winner's contract signed; contracts/contract-signing.ts then
 *   awards/check-tender-status.ts (docs/tenders.md §Contracts of a tender).
 * - any active status → cancelled (lots too): a cancellation made active; cancellations/cancellation.lifecycle.ts
 *   and cancellations/cancel.ts (docs/tenders.md §Cancellations); with cancellation complaints, an event at the end
 *   of a pending cancellation's complaint period, unless a complaint holds it; complaints/complaint.events.ts.
 * - complaints: a draft complaint becomes mistaken at its host's complaint period end; while a complaint of the
 *   tender holds it, or a cancellation of the whole tender is pending, the phase's own events wait;
 *   complaints/complaint.events.ts (docs/tenders.md §Complaints).
 */
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { shouldStartAfter } from '../../time/tender-periods';
import { cancel } from './cancellations/cancel';
import { cancellationPeriodEnds, draftExpiries, tenderWaits } from './complaints/complaint.events';
import { eventsOf, statusOf, type TenderEvent, type TenderProcedure } from './procedure';
import { activeLots, setTenderStatus } from './tender-status';
import { tenderingEndHandler } from './tendering-end';
import type { Tender, TenderConfig, TenderContent } from './tender.types';

/**
 * `auctionPeriod.shouldStartAfter` = tenderPeriod.endDate ceiled to midnight, per active lot (or on the tender
 * without lots), only with an auction and only from `active.tendering` on (spec era, docs/tenders.md §Auction period).
 */
export function planAuctions(t: TenderContent, config: TenderConfig): void {
  if (!config.hasAuction) return;
  const after = formatKyiv(shouldStartAfter(parseIsoDate(t.tenderPeriod.endDate)!));
  const lots = activeLots(t);
  if (lots.length === 0) t.auctionPeriod = { ...t.auctionPeriod, shouldStartAfter: after };
  for (const lot of lots) lot.auctionPeriod = { ...lot.auctionPeriod, shouldStartAfter: after };
}

type Phased = Pick<TenderProcedure, 'phases'>;

/** The enquiries phase ends at tenderPeriod.startDate: the tender is open for bids. */
export const enquiriesEnd = (procedure: Phased, t: Tender): TenderEvent[] => [
  {
    due: t.tenderPeriod.startDate,
    apply: (tender, now, config) => (setTenderStatus(tender, statusOf(procedure, 'tendering'), now), planAuctions(tender, config)),
  },
];

/** The tendering phase ends at tenderPeriod.endDate (tendering-end.ts). */
export const tenderingEnds = (procedure: Phased, t: Tender): TenderEvent[] => [
  { due: t.tenderPeriod.endDate, apply: tenderingEndHandler(procedure) },
];

/**
 * Every automatic transition pending for the tender (docs/tenders.md §Tender events and next_check): its complaints'
 * and its cancellations', then its phase's own unless the tender waits (docs/tenders.md §Complaints). `next_check`
 * and the check both read this one list.
 */
export const tenderEventsOf =
  (procedure: TenderProcedure) =>
  (tender: Tender): TenderEvent[] => [
    ...draftExpiries(tender),
    ...cancellationPeriodEnds(tender, (t, cancellation, now) => {
      cancellation.status = 'active';
      cancellation.date = formatKyiv(now);
      cancel(procedure, t, cancellation, now);
    }),
    ...(tenderWaits(tender) ? [] : eventsOf(procedure)(tender)),
  ];
