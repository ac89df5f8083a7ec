import { formatKyiv } from '../../../time/kyiv';
import { switchStatus } from '../awards/check-tender-status';
import { setTenderStatus } from '../tender-status';
import type { Cancellation, Lot, Tender, TenderContract } from '../tender.types';

/**
 * What an active cancellation does to its tender (docs/tenders.md §Cancellations), step by step as the
 * reference's `cancel`, `cancel_tender`, `cancel_lot` and `set_contracts_cancelled`
 * (`tender/core/procedure/state/chronograph.py`). Each returns the ids of the contracts it cancelled, whose
 * objects in the contracting module change with the tender.
 */

/** `set_object_status`: a changed status dates the object. */
function setStatus<S extends string>(obj: { status: S; date: string }, status: S, now: Date): void {
  if (obj.status === status) return;
  obj.status = status;
  obj.date = formatKyiv(now);
}

/** `set_contracts_cancelled`: the tender's (or the lot's awards') contracts not yet active are cancelled. */
export function setContractsCancelled(t: Tender, now: Date, lotId?: string): string[] {
  const awardIds = lotId ? new Set((t.awards ?? []).filter((a) => a.lotID === lotId).map((a) => a.id)) : undefined;
  const cancelled: string[] = [];
  for (const contract of t.contracts ?? []) {
    if (awardIds && !awardIds.has(contract.awardID)) continue;
    if (contract.status === 'active' || contract.status === 'cancelled') continue;
    setStatus<TenderContract['status']>(contract, 'cancelled', now);
    cancelled.push(contract.id);
  }
  return cancelled;
}

/** Statuses in which a cancelled tender's bids are dropped (`cancel_tender` without pre-qualification). */
const BIDS_DROPPED_IN = ['active.tendering', 'active.auction'];

/** `cancel_tender`: bids made so far are dropped, the tender is `cancelled` (its auction periods gone), so are its open contracts. */
export function cancelTender(t: Tender, now: Date): string[] {
  if (BIDS_DROPPED_IN.includes(t.status)) delete t.bids;
  setTenderStatus(t, 'cancelled', now);
  return setContractsCancelled(t, now);
}

/** Statuses in which bids lose their values for a cancelled lot (`cancel_lot`). */
const BIDS_TRIMMED_IN = ['active.tendering', 'active.pre-qualification', 'active.pre-qualification.stand-still', 'active.auction'];

/** `cancel_lot`'s bid step: values and feature parameters for cancelled lots go; a bid left with none is invalid. */
function invalidateLotBids(t: Tender, cancelledLots: Set<string | undefined>): void {
  const cancelledItems = new Set<string | undefined>((t.items ?? []).filter((i) => cancelledLots.has(i.relatedLot)).map((i) => i.id));
  const codes = new Set(
    (t.features ?? [])
      .filter(
        (f) => (f.featureOf === 'lot' && cancelledLots.has(f.relatedItem)) || (f.featureOf === 'item' && cancelledItems.has(f.relatedItem)),
      )
      .map((f) => f.code),
  );
  for (const bid of t.bids ?? []) {
    bid.parameters = (bid.parameters ?? []).filter((p) => !codes.has(p.code));
    if (bid.parameters.length === 0) delete bid.parameters;
    bid.lotValues = (bid.lotValues ?? []).filter((v) => !cancelledLots.has(v.relatedLot));
    if (bid.lotValues.length === 0 && ['pending', 'active'].includes(bid.status ?? '')) {
      delete bid.lotValues;
      bid.status = t.status === 'active.tendering' ? 'invalid' : 'invalid.pre-qualification';
    }
  }
}

/** `calc_auction_periods` for a lot no longer active: its planned auction start goes. */
function dropPlannedAuction(lot: Lot): void {
  if (!lot.auctionPeriod) return;
  const { shouldStartAfter: _planned, ...rest } = lot.auctionPeriod;
  if (Object.keys(rest).length === 0) delete lot.auctionPeriod;
  else lot.auctionPeriod = rest;
}

/**
 * `cancel_lot`: the lot is `cancelled`; bids lose their values for it; with every lot cancelled the tender is
 * `cancelled`, with none left active it is `unsuccessful` or `complete` as its other lots ended; the lot's open
 * contracts are cancelled.
 */
export function cancelLot(t: Tender, lotId: string, now: Date): string[] {
  const lots = t.lots ?? [];
  const lot = lots.find((l) => l.id === lotId)!;
  setStatus(lot, 'cancelled', now);
  dropPlannedAuction(lot);
  const cancelledLots = new Set<string | undefined>(lots.filter((l) => l.status === 'cancelled').map((l) => l.id));
  if (BIDS_TRIMMED_IN.includes(t.status)) invalidateLotBids(t, cancelledLots);
  switchStatus(t, now);
  return setContractsCancelled(t, now, lotId);
}

/** `cancel`: of the lot it names, or of the whole tender. */
export const cancel = (t: Tender, cancellation: Cancellation, now: Date): string[] =>
  cancellation.cancellationOf === 'lot' ? cancelLot(t, cancellation.relatedLot!, now) : cancelTender(t, now);
