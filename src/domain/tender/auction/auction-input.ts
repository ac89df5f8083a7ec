import type { Doc } from '../../core/object-doc';
import { apiError } from '../../../http/errors';
import { formatKyiv } from '../../../time/kyiv';

/**
 * What the auction module sends, matched with the tender position by position (docs/tenders.md §Auction) as the
 * spec-era `AuctionUrls`, `LotAuctionUrls`, `AuctionResults` and `AuctionLotResults` validators do: an entry may
 * leave out its `id` (or `relatedLot`) and take the one at its position.
 */
const fail = (name: string, text: string) => apiError(422, [text], { name });
const SAME_BIDS = 'Auction bids should be identical to the tender bids';

/** The posted bids with their ids, one per tender bid in the same order. */
function alignBids(posted: Doc[], tenderBids: Doc[], countText: string, checkKnown: boolean): Doc[] {
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
function alignLotValues(posted: Doc[] | undefined, tenderBid: Doc, lotId: string, required?: string): Doc[] {
  if (!posted) return [];
  const related: string[] = (tenderBid.lotValues ?? []).map((v: Doc) => v.relatedLot);
  if (posted.length > related.length) throw fail('bids', 'Number of lots of auction results did not match the number of tender lots');
  const aligned: Doc[] = posted.map((v, i) => ({ ...v, relatedLot: v.relatedLot ?? related[i] }));
  for (const v of aligned)
    if (required && v.relatedLot === lotId && v[required] === undefined) throw fail('bids', 'Auction participation url required');
  if (aligned.some((v, i) => v.relatedLot !== related[i]))
    throw fail('bids', 'Auction bid.lotValues should be identical to the tender bid.lotValues');
  return aligned;
}

/** `validate_auction_tender_non_lot`: a lot tender takes urls per lot. */
export function requireNoLots(tender: Doc): void {
  if (tender.lots?.length) {
    throw apiError(422, [{ participationUrl: ['url should be posted for each lot of bid'] }], { name: 'bids' });
  }
}

/** `PATCH /auction`: the tender's `auctionUrl` and each bid's `participationUrl`. */
export function applyAuctionUrls(tender: Doc, input: Doc): void {
  if (input.auctionUrl !== undefined) tender.auctionUrl = input.auctionUrl;
  if (!input.bids) return;
  const posted = alignBids(input.bids, tender.bids ?? [], 'Number of bids did not match the number of tender bids', false);
  posted.forEach((p, i) => {
    if (p.participationUrl !== undefined) tender.bids[i].participationUrl = p.participationUrl;
  });
}

/** `PATCH /auction/{lot_id}`: the lot's `auctionUrl` and the `participationUrl` of each bid's value for that lot. */
export function applyLotAuctionUrls(tender: Doc, lotId: string, input: Doc): void {
  const lots: Doc[] = tender.lots ?? [];
  if (input.lots.length !== lots.length) throw fail('lots', 'Number of lots did not match the number of tender lots');
  const postedLots = input.lots.map((l: Doc, i: number) => ({ ...l, id: l.id ?? lots[i].id }));
  for (const l of postedLots) if (l.id === lotId && l.auctionUrl === undefined) throw fail('lots', 'Auction url required');
  if (postedLots.some((l: Doc, i: number) => l.id !== lots[i].id))
    throw fail('lots', 'Auction lots should be identical to the tender lots');
  const bids: Doc[] = tender.bids ?? [];
  const posted = alignBids(input.bids, bids, 'Number of auction results did not match the number of tender bids', true);
  posted.forEach((p, i) => {
    for (const v of alignLotValues(p.lotValues, bids[i], lotId, 'participationUrl')) {
      const target = (bids[i].lotValues ?? []).find((lv: Doc) => lv.relatedLot === lotId);
      if (v.relatedLot === lotId && target) target.participationUrl = v.participationUrl;
    }
  });
  lots.find((l) => l.id === lotId)!.auctionUrl = postedLots.find((l: Doc) => l.id === lotId).auctionUrl;
}

/** A result's value over the bid's value: the amount (and currency, VAT when given); the bid keeps the rest. */
const resultValue = (before: Doc | undefined, result: Doc | undefined): Doc | undefined => {
  if (!result) return before;
  const { date: _date, ...value } = result;
  return { ...before, ...value };
};

/** `POST /auction`: each bid's final value. */
export function applyAuctionResults(tender: Doc, input: Doc): void {
  if (!input.bids) return;
  const bids: Doc[] = tender.bids ?? [];
  const posted = alignBids(input.bids, bids, 'Number of auction results did not match the number of tender bids', false);
  posted.forEach((p, i) => {
    bids[i].value = resultValue(bids[i].value, p.value);
    if (p.date) bids[i].date = p.date;
  });
}

/** `POST /auction/{lot_id}`: each bid's final value for that lot. */
export function applyAuctionLotResults(tender: Doc, lotId: string, input: Doc): void {
  const bids: Doc[] = tender.bids ?? [];
  const posted = alignBids(input.bids, bids, 'Number of auction results did not match the number of tender bids', true);
  posted.forEach((p, i) => {
    for (const v of alignLotValues(p.lotValues, bids[i], lotId)) {
      const target = (bids[i].lotValues ?? []).find((lv: Doc) => lv.relatedLot === lotId);
      if (v.relatedLot !== lotId || !target) continue;
      target.value = resultValue(target.value, v.value);
      if (v.date) target.date = v.date;
    }
  });
}

/** `update_auction_period`: the auction is over now (it started now too when nobody planned it). */
export function closeAuctionPeriod(holder: Doc, now: Date): void {
  const stamp = formatKyiv(now);
  holder.auctionPeriod = { ...holder.auctionPeriod, startDate: holder.auctionPeriod?.startDate ?? stamp, endDate: stamp };
}
