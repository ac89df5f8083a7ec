import type { Doc } from '../../../store/port';
import type { ObjectDoc } from '../../core/objects';

/**
 * Bids as readers see them (docs/tenders.md §Bids, the spec-era `TenderSerializer` and `BidSerializer`): without
 * pre-qualification the tender shows no bids at all until its auction is over; afterwards an `invalid` or
 * `deleted` bid shows only its `id` and `status`. The store shows an unrestricted tender's `data` to every reader
 * as it is, so private bids are kept outside `data` (`sealedBids`) and enter it, as seen, once they are public.
 */
export const BIDS_PRIVATE_IN = ['draft', 'active.enquiries', 'active.tendering', 'active.auction'];

export const bidsArePrivate = (tender: Doc) => BIDS_PRIVATE_IN.includes(tender.status);

export const bidAsSeen = (bid: Doc): Doc => (['invalid', 'deleted'].includes(bid.status) ? { id: bid.id, status: bid.status } : bid);

export type SealedDoc = ObjectDoc & { sealedBids?: Doc[] };

/** The tender's data with its bids, sealed or not: what the state machine, bids and auction work on. */
export function withBids(doc: SealedDoc): Doc {
  return doc.sealedBids ? { ...doc.data, bids: doc.sealedBids } : doc.data;
}

/** The document that keeps `tender`: its bids sealed while they are private, else in `data` as readers see them. */
export function sealedDoc<T extends SealedDoc>(doc: T, tender: Doc): T {
  const { bids, ...data } = tender;
  const { sealedBids: _old, ...rest } = doc;
  const kept: SealedDoc = !bids?.length
    ? { ...rest, data }
    : bidsArePrivate(tender)
      ? { ...rest, data, sealedBids: bids }
      : { ...rest, data: { ...data, bids: (bids as Doc[]).map(bidAsSeen) } };
  return kept as T;
}
