import { addNextAward } from './awards/add-next-award';
import { isIn, statusOf, type TenderEvent, type TenderProcedure } from './procedure';
import { activeLots, bidsNumber, isActiveBid, removeAllAuctionPeriods, setTenderStatus } from './tender-status';
import type { Tender, TenderConfig } from './tender.types';

/**
 * The end of tendering (docs/tenders.md §End of tendering), step by step as the spec-era reference's
 * `tendering_end_handler` (`tender/core/procedure/state/chronograph.py`), each step named after its own.
 */

/** `remove_draft_bids`: a bid never submitted is dropped. */
export function removeDraftBids(t: Tender): void {
  if (!t.bids) return;
  t.bids = t.bids.filter((b) => b.status !== 'draft');
  if (t.bids.length === 0) delete t.bids;
}

/** `activate_bids`: submitted bids and their lot values become `active`. */
export function activateBids(t: Tender): void {
  for (const bid of t.bids ?? []) {
    for (const value of bid.lotValues ?? []) value.status = 'active';
    if (bid.status === 'pending') bid.status = 'active';
  }
}

type Phased = Pick<TenderProcedure, 'phases'>;

/**
 * `check_bids_number`: a lot (or a tender without lots) with fewer bids than `minBidsNumber` is unsuccessful with
 * its lot values and auction period; with `minBidsNumber` 1 a lot of one bid skips its auction, and when every
 * lot has at most one bid the tender goes straight to awarding; bids left without an active lot are unsuccessful.
 */
export function checkBidsNumber(t: Tender, now: Date, config: TenderConfig, procedure: Phased): void {
  const onlyTendering = (t: Tender) => isIn(procedure, 'tendering', t.status);
  const min = config.minBidsNumber;
  if (!t.lots?.length) {
    const count = bidsNumber(t);
    if (min !== undefined && count < min) {
      for (const bid of t.bids ?? []) if (isActiveBid(bid)) bid.status = 'unsuccessful';
      setTenderStatus(t, 'unsuccessful', now);
    } else if (min === 1 && count === 1 && onlyTendering(t)) {
      delete t.auctionPeriod;
      addNextAward(t, now, config, procedure);
    }
    return;
  }
  let most = 0;
  for (const lot of activeLots(t)) {
    const count = bidsNumber(t, lot.id);
    if (min !== undefined && count < min) {
      delete lot.auctionPeriod;
      lot.status = 'unsuccessful';
      for (const bid of t.bids ?? []) for (const v of bid.lotValues ?? []) if (v.relatedLot === lot.id) v.status = 'unsuccessful';
    }
    if (min === 1 && count === 1) delete lot.auctionPeriod;
    most = Math.max(most, count);
  }
  const active = new Set(activeLots(t).map((l) => l.id));
  for (const bid of t.bids ?? []) {
    if (isActiveBid(bid) && !(bid.lotValues ?? []).some((v) => v.relatedLot !== undefined && active.has(v.relatedLot)))
      bid.status = 'unsuccessful';
  }
  if (active.size === 0) setTenderStatus(t, 'unsuccessful', now);
  else if (min === 1 && most === 1 && onlyTendering(t)) {
    removeAllAuctionPeriods(t);
    addNextAward(t, now, config, procedure);
  }
}

/** `switch_to_auction_or_qualification`: to the auction when `config.hasAuction`, else straight to awarding. */
export function switchToAuctionOrQualification(t: Tender, now: Date, config: TenderConfig, procedure: Phased): void {
  // Still tendering unless the bids' count ended it (unsuccessful) or sent it to awarding.
  if (!isIn(procedure, 'tendering', t.status)) return;
  if (config.hasAuction) setTenderStatus(t, statusOf(procedure, 'auction'), now);
  else addNextAward(t, now, config, procedure);
}

/** `tendering_end_handler` without pre-qualification (no procedure here has it). */
export const tenderingEndHandler =
  (procedure: Phased): TenderEvent['apply'] =>
  (t, now, config) => {
    removeDraftBids(t);
    activateBids(t);
    checkBidsNumber(t, now, config, procedure);
    switchToAuctionOrQualification(t, now, config, procedure);
  };
