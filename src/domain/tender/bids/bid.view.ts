import { bidsVisibility, type TenderProcedure } from '../procedure';
import type { Bid, Tender } from '../tender.types';

/**
 * Bids as readers see them (docs/tenders.md §Bids, the spec-era `TenderSerializer` and `BidSerializer`): the
 * procedure's phases say when its bids are public (without pre-qualification, once its auction is over); then an
 * `invalid` or `deleted` bid shows only its `id` and `status`. The store shows an unrestricted tender's `data` to
 * every reader as it is, so private bids are kept outside `data` (`sealedBids`) and enter it, as seen, once they
 * are public (`withTender`, src/domain/tender/tender-aggregate.ts).
 */
export const bidsArePrivate = (procedure: Pick<TenderProcedure, 'phases'>, tender: Pick<Tender, 'status'>) =>
  bidsVisibility(procedure, tender.status) !== 'public';

export const bidAsSeen = (bid: Bid): Bid => (['invalid', 'deleted'].includes(bid.status) ? { id: bid.id, status: bid.status } : bid);
