import { apiError } from '../../../http/errors';
import { formatKyiv } from '../../../time/kyiv';
import type { Value } from '../../core/shapes';
import type { AuctionPeriod, Bid, Tender } from '../tender.types';
import type { AuctionLotResults, AuctionResults, AuctionUrls, LotAuctionUrls, ValueResult } from './auction.schema';

/**
 * What the auction module sends, matched with the tender position by position (docs/tenders.md §Auction) as the
 * spec-era `AuctionUrls`, `LotAuctionUrls`, `AuctionResults` and `AuctionLotResults` validators do: an entry may
 * leave out its `id` (or `relatedLot`) and take the one at its position.
 */
const fail = (name: string, text: string) => apiError(422, [text], { name });
const SAME_BIDS = 'Auction bids should be identical to the tender bids';

/** The posted bids with their ids, one per tender bid in the same order. */
function alignBids<P extends { id?: string }>(posted: P[], tenderBids: Bid[], countText: string, checkKnown: boolean): P[] {
  if (posted.length !== tenderBids.length) throw fail('bids', countText);
  const known = new Set(tenderBids.map((b) => b.id));
  const aligned = posted.map((bid, i) => {
    if (bid.id !== undefined && checkKnown && !known.has(bid.id)) throw fail('bids', SAME_BIDS);
    return { ...bid, id: bid.id ?? tenderBids[i].id };
  });
  if (aligned.some((bid, i) => bid.id !== tenderBids[i].id)) throw fail('bids', SAME_BIDS);
  return aligned;
}

/** A posted bid's lotValues with their `relatedLot`, in the tender bid's order (the posted list may be shorter). */
function alignLotValues<V extends { relatedLot?: string }>(
  posted: V[] | undefined,
  tenderBid: Bid,
  lotId: string,
  required?: keyof V,
): V[] {
  if (!posted) return [];
  const related = (tenderBid.lotValues ?? []).map((v) => v.relatedLot);
  if (posted.length > related.length) throw fail('bids', 'Number of lots of auction results did not match the number of tender lots');
  const aligned = posted.map((v, i) => ({ ...v, relatedLot: v.relatedLot ?? related[i] }));
  for (const v of aligned)
    if (required && v.relatedLot === lotId && v[required] === undefined) throw fail('bids', 'Auction participation url required');
  if (aligned.some((v, i) => v.relatedLot !== related[i]))
    throw fail('bids', 'Auction bid.lotValues should be identical to the tender bid.lotValues');
  return aligned;
}

/** `validate_auction_tender_non_lot`: a lot tender takes urls per lot. */
export function requireNoLots(tender: Tender): void {
  if (tender.lots?.length) {
    throw apiError(422, [{ participationUrl: ['url should be posted for each lot of bid'] }], { name: 'bids' });
  }
}

/** `PATCH /auction`: the tender's `auctionUrl` and each bid's `participationUrl`. */
export function applyAuctionUrls(tender: Tender, input: AuctionUrls): void {
  if (input.auctionUrl !== undefined) tender.auctionUrl = input.auctionUrl;
  if (!input.bids) return;
  const bids = tender.bids ?? [];
  const posted = alignBids(input.bids, bids, 'Number of bids did not match the number of tender bids', false);
  posted.forEach((p, i) => {
    if (p.participationUrl !== undefined) bids[i].participationUrl = p.participationUrl;
  });
}

/** `PATCH /auction/{lot_id}`: the lot's `auctionUrl` and the `participationUrl` of each bid's value for that lot. */
export function applyLotAuctionUrls(tender: Tender, lotId: string, input: LotAuctionUrls): void {
  const lots = tender.lots ?? [];
  if (input.lots.length !== lots.length) throw fail('lots', 'Number of lots did not match the number of tender lots');
  const postedLots = input.lots.map((l, i) => ({ ...l, id: l.id ?? lots[i].id }));
  for (const l of postedLots) if (l.id === lotId && l.auctionUrl === undefined) throw fail('lots', 'Auction url required');
  if (postedLots.some((l, i) => l.id !== lots[i].id)) throw fail('lots', 'Auction lots should be identical to the tender lots');
  const bids = tender.bids ?? [];
  const posted = alignBids(input.bids, bids, 'Number of auction results did not match the number of tender bids', true);
  posted.forEach((p, i) => {
    for (const v of alignLotValues(p.lotValues, bids[i], lotId, 'participationUrl')) {
      const target = (bids[i].lotValues ?? []).find((lv) => lv.relatedLot === lotId);
      if (v.relatedLot === lotId && target) target.participationUrl = v.participationUrl;
    }
  });
  lots.find((l) => l.id === lotId)!.auctionUrl = postedLots.find((l) => l.id === lotId)!.auctionUrl;
}

/** A result's value over the bid's value: the amount (and currency, VAT when given); the bid keeps the rest. */
const resultValue = (before: Value | undefined, result: ValueResult | undefined): Value | undefined => {
  if (!result) return before;
  const { date: _date, ...value } = result;
  // The auction reports an amount for every bid it ran (the schema leaves it optional, as the reference's).
  return { ...before, ...value } as Value;
};

/** `POST /auction`: each bid's final value. */
export function applyAuctionResults(tender: Tender, input: AuctionResults): void {
  if (!input.bids) return;
  const bids = tender.bids ?? [];
  const posted = alignBids(input.bids, bids, 'Number of auction results did not match the number of tender bids', false);
  posted.forEach((p, i) => {
    bids[i].value = resultValue(bids[i].value, p.value);
    if (p.date) bids[i].date = p.date;
  });
}

/** `POST /auction/{lot_id}`: each bid's final value for that lot. */
export function applyAuctionLotResults(tender: Tender, lotId: string, input: AuctionLotResults): void {
  const bids = tender.bids ?? [];
  const posted = alignBids(input.bids, bids, 'Number of auction results did not match the number of tender bids', true);
  posted.forEach((p, i) => {
    for (const v of alignLotValues(p.lotValues, bids[i], lotId)) {
      const target = (bids[i].lotValues ?? []).find((lv) => lv.relatedLot === lotId);
      if (v.relatedLot !== lotId || !target) continue;
      target.value = resultValue(target.value, v.value);
      if (v.date) target.date = v.date;
    }
  });
}

/** `update_auction_period`: the auction is over now (it started now too when nobody planned it). */
export function closeAuctionPeriod(holder: { auctionPeriod?: AuctionPeriod }, now: Date): void {
  const stamp = formatKyiv(now);
  holder.auctionPeriod = { ...holder.auctionPeriod, startDate: holder.auctionPeriod?.startDate ?? stamp, endDate: stamp };
}
