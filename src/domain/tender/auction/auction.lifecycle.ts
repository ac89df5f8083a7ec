import { apiError } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { validated } from '../../core/validation';
import { addNextAward } from '../awards/add-next-award';
import { inWindow } from '../procedure';
import { activeLots, bidsNumber, STATE_MACHINE_WRITES } from '../tender-status';
import { procedureOfStored } from '../tender.lifecycle';
import {
  applyAuctionLotResults,
  applyAuctionResults,
  applyAuctionUrls,
  applyLotAuctionUrls,
  closeAuctionPeriod,
  requireNoLots,
} from './auction-input';
import {
  auctionLotResults,
  auctionResults,
  auctionUrls,
  lotAuctionUrls,
  type AuctionLotResults,
  type AuctionResults,
  type AuctionUrls,
  type LotAuctionUrls,
} from './auction.schema';
import { saveTender, tenderOf, type StoredTender, type TenderDoc } from '../tender-aggregate';
import type { Lot, Tender, TenderConfig } from '../tender.types';

/**
 * What the auction module does to a tender (docs/tenders.md §Auction): it sets `auctionUrl` and `participationUrl`,
 * then reports the results, after which `add_next_award` runs (for lots, once every lot that had an auction has
 * reported). Each refusal names the operation asked for. The request's `data` is read only once the tender's status
 * (and the lot's) let the operation through: those refusals answer first.
 */
type AuctionOperation = 'get auction info' | 'report auction results' | 'update auction urls';

/** `validate_auction_tender_status`: the tender in its procedure's auction window. */
export function requireAuctionStatus(tender: Tender, operation: AuctionOperation): void {
  const { status } = tender;
  if (!inWindow(procedureOfStored(tender), 'auction', status))
    throw apiError(403, `Can't ${operation} in current (${status}) tender status`);
}

/** `validate_active_lot`. */
function requireActiveLot(tender: Tender, lotId: string, operation: AuctionOperation): Lot {
  const lot = activeLots(tender).find((l) => l.id === lotId);
  if (!lot) throw apiError(403, `Can ${operation} only in active lot status`);
  return lot;
}

/** `apply` on the tender in `active.auction`, saved with its next_check, dated now; the document as stored. */
async function changeAuction(
  session: StoreSession,
  stored: StoredTender,
  now: Date,
  operation: AuctionOperation,
  apply: (tender: Tender, config: TenderConfig) => void,
): Promise<TenderDoc> {
  requireAuctionStatus(stored.doc.data, operation);
  const tender = structuredClone(tenderOf(stored.doc));
  apply(tender, stored.doc.config ?? {});
  const data = { ...tender, dateModified: formatKyiv(now) };
  return saveTender(session, stored, data, { writes: STATE_MACHINE_WRITES });
}

/** `PATCH /tenders/{id}/auction`: the urls of a tender without lots. */
export const setAuctionUrls = (session: StoreSession, stored: StoredTender, data: () => Record<string, unknown>, now: Date) =>
  changeAuction(session, stored, now, 'update auction urls', (tender) => {
    requireNoLots(tender);
    applyAuctionUrls(tender, validated<AuctionUrls>(auctionUrls, data()));
  });

/** `PATCH /tenders/{id}/auction/{lot_id}`: the urls of an active lot. */
export const setLotAuctionUrls = (
  session: StoreSession,
  stored: StoredTender,
  lotId: string,
  data: () => Record<string, unknown>,
  now: Date,
) =>
  changeAuction(session, stored, now, 'update auction urls', (tender) => {
    requireActiveLot(tender, lotId, 'update auction urls');
    applyLotAuctionUrls(tender, lotId, validated<LotAuctionUrls>(lotAuctionUrls, data()));
  });

/** `POST /tenders/{id}/auction`: the results, then the first award. */
export const reportAuctionResults = (session: StoreSession, stored: StoredTender, data: () => Record<string, unknown>, now: Date) =>
  changeAuction(session, stored, now, 'report auction results', (tender, config) => {
    applyAuctionResults(tender, validated<AuctionResults>(auctionResults, data()));
    addNextAward(tender, now, config, procedureOfStored(tender));
    closeAuctionPeriod(tender, now);
  });

/** `POST /tenders/{id}/auction/{lot_id}`: a lot's results, then the awards once every auctioned lot has reported. */
export const reportLotAuctionResults = (
  session: StoreSession,
  stored: StoredTender,
  lotId: string,
  data: () => Record<string, unknown>,
  now: Date,
) =>
  changeAuction(session, stored, now, 'report auction results', (tender, config) => {
    const lot = requireActiveLot(tender, lotId, 'report auction results');
    applyAuctionLotResults(tender, lotId, validated<AuctionLotResults>(auctionLotResults, data()));
    closeAuctionPeriod(lot, now);
    const auctioned = activeLots(tender).filter((l) => bidsNumber(tender, l.id) > 1);
    if (auctioned.every((l) => l.auctionPeriod?.endDate)) addNextAward(tender, now, config, procedureOfStored(tender));
  });
