import type { Doc } from '../../store/port';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { shouldStartAfter } from '../../time/tender-periods';
import type { TenderEvent } from './procedure';
import { activeLots, setTenderStatus } from './tender-status';
import { tenderingEndHandler } from './tendering-end';

/**
 * `auctionPeriod.shouldStartAfter` = tenderPeriod.endDate ceiled to midnight, per active lot (or on the tender
 * without lots), only with an auction and only from `active.tendering` on (spec era, docs/tenders.md §Auction period).
 */
export function planAuctions(t: Doc, config: Doc): void {
  if (!config.hasAuction) return;
  const after = formatKyiv(shouldStartAfter(parseIsoDate(t.tenderPeriod.endDate)!));
  const lots = activeLots(t);
  if (lots.length === 0) t.auctionPeriod = { ...t.auctionPeriod, shouldStartAfter: after };
  for (const lot of lots) lot.auctionPeriod = { ...lot.auctionPeriod, shouldStartAfter: after };
}

/** `active.enquiries` ends at tenderPeriod.startDate: the tender is open for bids. */
export const enquiriesEnd = (t: Doc): TenderEvent[] =>
  t.status === 'active.enquiries'
    ? [
        {
          due: t.tenderPeriod.startDate,
          apply: (tender, now, config) => (setTenderStatus(tender, 'active.tendering', now), planAuctions(tender, config)),
        },
      ]
    : [];

export const tenderingEnds = (t: Doc): TenderEvent[] =>
  t.status === 'active.tendering' ? [{ due: t.tenderPeriod.endDate, apply: tenderingEndHandler }] : [];

/** `next_check`: the earliest pending event, absent when there is none. */
export function nextCheckOf(events: TenderEvent[]): string | undefined {
  const dues = events.map((e) => e.due).sort((a, b) => Date.parse(a) - Date.parse(b));
  return dues[0];
}
