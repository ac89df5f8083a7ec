import Router from '@koa/router';
import type { AppDeps } from '../../../app-deps';
import type { Ctx, RequestState } from '../../../http/context';
import { apiError, forbidden } from '../../../http/errors';
import { absoluteUrl, created } from '../../../http/render';
import type { Doc } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { itemsOf } from '../../core/items';
import { requireBroker } from '../../core/owner';
import { answerDocument, listDocuments, subResourceDocumentWrites, type HeldDocuments } from '../../documents/document-routes';
import { tenderDocumentPatch } from '../tender.routes';
import { visibleData } from '../restricted-view';
import { TENDER_MASK } from '../tender.mask';
import { bidsOf, createBid, deleteBid, findBid, isBidOwner, patchBid } from './bid-lifecycle';
import { bidsArePrivate } from './bid.view';
import { loadTender, tenderOf, saveTender, type TenderDoc } from '../tender-aggregate';

const documentsOf = (bid: Doc): Doc[] => itemsOf(bid, 'documents');

/** Tender statuses in which a bid's owner may add documents (`validate_bid_document_in_tender_status`). */
const DOCUMENTS_IN = ['active.tendering', 'active.qualification', 'active.awarded'];

/**
 * The bid as this reader sees it (docs/tenders.md §Bids): whole for its owner; for anyone else refused while bids
 * are private (`refusal` words the 403), else as the tender shows it (masked on a restricted tender).
 */
function visibleBid(ctx: Ctx, doc: TenderDoc, bidId: string, refusal: (status: string) => string): Doc {
  const bid = findBid(tenderOf(doc), bidId);
  if (isBidOwner(ctx, doc, bidId)) return bid;
  if (bidsArePrivate(doc.data)) throw apiError(403, refusal(doc.data.status));
  return findBid(visibleData(doc, ctx.state.viewer, TENDER_MASK), bidId);
}

/** A bid's documents as this reader sees them (spec-era `validate_view_bid_document`, `…_allowed_in_bid_status`). */
function visibleBidDocuments(ctx: Ctx, doc: TenderDoc, bidId: string): Doc[] {
  const bid = visibleBid(ctx, doc, bidId, (status) => `Can't view bid documents in current (${status}) tender status`);
  const { status } = findBid(tenderOf(doc), bidId);
  if (['invalid', 'deleted'].includes(status) && !isBidOwner(ctx, doc, bidId)) {
    throw apiError(403, `Can't view bid documents in current (${status}) bid status`);
  }
  return documentsOf(bid);
}

/**
 * A bid document added (`POST`) or updated (`PUT`, `PATCH`) by the bid's owner, in the statuses and periods the
 * reference allows, `verb` wording the refusals (docs/tenders.md §Bids).
 */
function requireBidDocumentAllowed(ctx: Ctx, doc: TenderDoc, bid: Doc, verb: 'add' | 'update'): void {
  requireBroker(ctx);
  if (!isBidOwner(ctx, doc, bid.id)) throw forbidden();
  const tender = tenderOf(doc);
  const { status, tenderPeriod } = tender;
  if (!DOCUMENTS_IN.includes(status)) throw apiError(403, `Can't ${verb} document in current (${status}) tender status`);
  const now = ctx.state.now.getTime();
  if (
    status === 'active.tendering' &&
    ((tenderPeriod.startDate && now < Date.parse(tenderPeriod.startDate)) || now > Date.parse(tenderPeriod.endDate))
  ) {
    throw apiError(
      403,
      `Document can be ${verb === 'add' ? 'added' : 'updated'} only during the tendering period: from (${tenderPeriod.startDate}) to (${tenderPeriod.endDate}).`,
    );
  }
  const awarded = itemsOf(tender, 'awards').some((a) => a.status === 'active' && a.bid_id === bid.id);
  if (status !== 'active.tendering' && !awarded) {
    throw apiError(403, `Can't ${verb} document because award of bid is not in one of statuses ('active',)`);
  }
  if (['unsuccessful', 'deleted'].includes(bid.status)) throw apiError(403, `Can't ${verb} document at '${bid.status}' bid status`);
}

/** A bid's documents, for a change by the bid's owner (`subResourceDocumentWrites`). */
async function heldBidDocuments(ctx: Ctx): Promise<HeldDocuments> {
  const stored = await loadTender(ctx.state.session, ctx.params.id);
  const tender = tenderOf(stored.doc);
  const bid = findBid(tender, ctx.params.bidId);
  return {
    documents: documentsOf(bid),
    listPath: `/api/2.5/tenders/${ctx.params.id}/bids/${bid.id}/documents`,
    writable: (verb) => requireBidDocumentAllowed(ctx, stored.doc, bid, verb),
    async save(documents) {
      const bids = bidsOf(tender).map((b) => (b.id === bid.id ? { ...b, documents } : b));
      // While bids are private the tender's dateModified stays (docs/tenders.md §Bids); afterwards the change is public.
      const dateModified = bidsArePrivate(tender) ? tender.dateModified : formatKyiv(ctx.state.now);
      await saveTender(ctx.state.session, stored, { ...tender, bids, dateModified }, { writes: ['bids'] });
    },
  };
}

/** `/tenders/{id}/bids[/{bid_id}[/documents[/{document_id}]]]` (docs/tenders.md §Bids). */
export function bidRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id/bids' });
  const base = deps.config.publicBaseUrl;
  const bidPath = (ctx: Ctx, bidId: string) => `/api/2.5/tenders/${ctx.params.id}/bids/${bidId}`;

  router.post('/', async (ctx) => {
    const { bid, access } = await createBid(ctx, ctx.params.id);
    created(ctx, absoluteUrl(ctx, base, bidPath(ctx, bid.id)), { data: bid, access });
  });

  router.get('/', async (ctx) => {
    const { doc } = await loadTender(ctx.state.session, ctx.params.id);
    if (bidsArePrivate(doc.data)) throw apiError(403, `Can't view bids in current (${doc.data.status}) tender status`);
    ctx.body = { data: visibleData(doc, ctx.state.viewer, TENDER_MASK).bids ?? [] };
  });

  router.get('/:bidId', async (ctx) => {
    const { doc } = await loadTender(ctx.state.session, ctx.params.id);
    ctx.body = { data: visibleBid(ctx, doc, ctx.params.bidId, (status) => `Can't view bid in current (${status}) tender status`) };
  });

  router.patch('/:bidId', async (ctx) => {
    ctx.body = { data: await patchBid(ctx, ctx.params.id, ctx.params.bidId) };
  });

  router.delete('/:bidId', async (ctx) => {
    ctx.body = { data: await deleteBid(ctx, ctx.params.id, ctx.params.bidId) };
  });

  subResourceDocumentWrites(router, deps, '/:bidId/documents', tenderDocumentPatch, heldBidDocuments);

  router.get('/:bidId/documents', async (ctx) => {
    const { doc } = await loadTender(ctx.state.session, ctx.params.id);
    listDocuments(ctx, visibleBidDocuments(ctx, doc, ctx.params.bidId));
  });

  router.get('/:bidId/documents/:documentId', async (ctx) => {
    const { doc } = await loadTender(ctx.state.session, ctx.params.id);
    const visible = visibleBidDocuments(ctx, doc, ctx.params.bidId);
    await answerDocument(ctx, visible, documentsOf(findBid(tenderOf(doc), ctx.params.bidId)));
  });

  return router;
}
