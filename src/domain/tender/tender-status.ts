import { formatKyiv } from '../../time/kyiv';
import type { Bid, Lot, TenderContent, TenderStatus } from './tender.types';

/** Every status change dates the tender; `cancelled` and `unsuccessful` drop the auction periods (`TenderState.status_up`). */
export function setTenderStatus(t: TenderContent, status: TenderStatus, now: Date): void {
  t.status = status;
  t.date = formatKyiv(now);
  if (status === 'unsuccessful' || status === 'cancelled') removeAllAuctionPeriods(t);
}

/** `remove_all_auction_periods`: of the tender and of every lot. */
export function removeAllAuctionPeriods(t: TenderContent): void {
  delete t.auctionPeriod;
  for (const lot of t.lots ?? []) delete lot.auctionPeriod;
}

export const activeLots = (t: TenderContent): Lot[] => (t.lots ?? []).filter((l) => l.status === 'active');

/** `active_bid_statuses` of the reference. */
export const isActiveBid = (bid: Bid) => ['active', 'pending'].includes(bid.status ?? 'active');

/** `count_lot_bids_number` (with a lot) or `count_bids_number` (without). */
export function bidsNumber(t: TenderContent, lotId?: string): number {
  return (t.bids ?? []).filter(
    (b) =>
      isActiveBid(b) &&
      (lotId === undefined ||
        (b.lotValues ?? []).some((v) => v.relatedLot === lotId && ['active', 'pending'].includes(v.status ?? 'active'))),
  ).length;
}

/**
 * The server-managed arrays (docs/platform.md §Server-managed arrays) the tender's state machine writes: it reveals
 * the bids and `add_next_award` adds awards (docs/tenders.md §Bids, §End of tendering, §Auction); unpaid complaints
 * expire and pending cancellations take effect, cancelling contracts (docs/tenders.md §Complaints).
 */
export const STATE_MACHINE_WRITES = ['bids', 'awards', 'complaints', 'cancellations', 'contracts'];
