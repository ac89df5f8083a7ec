import type { Doc } from '../../../store/port';

/**
 * Bids as readers see them (docs/tenders.md §Bids, the spec-era `TenderSerializer` and `BidSerializer`): without
 * pre-qualification the tender shows no bids at all until its auction is over; afterwards an `invalid` or
 * `deleted` bid shows only its `id` and `status`.
 */
export const BIDS_PRIVATE_IN = ['draft', 'active.enquiries', 'active.tendering', 'active.auction'];

export const bidsArePrivate = (tender: Doc) => BIDS_PRIVATE_IN.includes(tender.status);

export const bidAsSeen = (bid: Doc): Doc => (['invalid', 'deleted'].includes(bid.status) ? { id: bid.id, status: bid.status } : bid);

/** The tender data with its bids as every reader sees them in the tender itself (its feeds, its documents). */
export function withBidsAsSeen(data: Doc): Doc {
  if (!data.bids) return data;
  if (bidsArePrivate(data)) {
    const { bids: _hidden, ...rest } = data;
    return rest;
  }
  return { ...data, bids: (data.bids as Doc[]).map(bidAsSeen) };
}
