import { formatKyiv } from '../../../time/kyiv';
import { switchStatus } from '../awards/check-tender-status';
import { bidsVisibility, inWindow, type TenderProcedure } from '../procedure';
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

type Procedure = Pick<TenderProcedure, 'phases' | 'windows'>;

/**
 * `cancel_tender`: bids made so far are dropped while sealed (without pre-qualification), the tender is `cancelled`
 * (its auction periods gone), so are its open contracts.
 */
export function cancelTender(procedure: Procedure, t: Tender, now: Date): string[] {
  if (bidsVisibility(procedure, t.status) === 'sealed') delete t.bids;
  setTenderStatus(t, 'cancelled', now);
  return setContractsCancelled(t, now);
}

/**
 * `cancel_lot`'s bid step, while bids are not public: values and feature parameters for cancelled lots go; a bid
 * left with none is invalid (`invalid.pre-qualification` once bids may no longer change).
 */
function invalidateLotBids(procedure: Procedure, t: Tender, cancelledLots: Set<string | undefined>): void {
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
      bid.status = inWindow(procedure, 'bids', t.status) ? 'invalid' : 'invalid.pre-qualification';
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
export function cancelLot(procedure: Procedure, t: Tender, lotId: string, now: Date): string[] {
  const lots = t.lots ?? [];
  const lot = lots.find((l) => l.id === lotId)!;
  setStatus(lot, 'cancelled', now);
  dropPlannedAuction(lot);
  const cancelledLots = new Set<string | undefined>(lots.filter((l) => l.status === 'cancelled').map((l) => l.id));
  if (bidsVisibility(procedure, t.status) !== 'public') invalidateLotBids(procedure, t, cancelledLots);
  switchStatus(t, now);
  return setContractsCancelled(t, now, lotId);
}

/** `cancel`: of the lot it names, or of the whole tender. */
export const cancel = (procedure: Procedure, t: Tender, cancellation: Cancellation, now: Date): string[] =>
  cancellation.cancellationOf === 'lot' ? cancelLot(procedure, t, cancellation.relatedLot!, now) : cancelTender(procedure, t, now);
