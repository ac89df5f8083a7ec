import type { Bid, Tender } from '../tender.types';

/**
 * Bids as readers see them (docs/tenders.md §Bids, the spec-era `TenderSerializer` and `BidSerializer`): without
 * pre-qualification the tender shows no bids at all until its auction is over; afterwards an `invalid` or
 * `deleted` bid shows only its `id` and `status`. The store shows an unrestricted tender's `data` to every reader
 * as it is, so private bids are kept outside `data` (`sealedBids`) and enter it, as seen, once they are public
 * (`withTender`, src/domain/tender/tender-aggregate.ts).
 */
export const BIDS_PRIVATE_IN = ['draft', 'active.enquiries', 'active.tendering', 'active.auction'];

export const bidsArePrivate = (tender: Pick<Tender, 'status'>) => BIDS_PRIVATE_IN.includes(tender.status);

export const bidAsSeen = (bid: Bid): Bid => (['invalid', 'deleted'].includes(bid.status) ? { id: bid.id, status: bid.status } : bid);
