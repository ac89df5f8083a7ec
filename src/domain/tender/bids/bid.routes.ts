import type { RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { apiError, notFound } from '../../../http/errors';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import { actorOf } from '../../core/actor';
import { itemById } from '../../core/items';
import { isOwner, ownerOf } from '../../core/owner';
import {
  documentsOf,
  type DocumentHolder,
  documentReadRoutes,
  documentWriteRoutes,
  TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
  withoutConfidentialUrls,
} from '../../documents';
import { TENDER_PROCEDURES } from '../procedures';
import { loadTenderOf, tenderDocumentPatch } from '../tender.routes';
import { procedureOfStored } from '../tender.lifecycle';
import { visibleData } from '../../core/restricted-view';
import { TENDER_MASK } from '../tender.mask';
import { bidDocuments, bidOwnership, createBid, deleteBid, findBid, patchBid, type TenderBid } from './bid.lifecycle';
import { bidsArePrivate } from './bid.view';
import { evidenceSchema } from './requirement-response.schema';
import { addEvidence } from './response-evidence.lifecycle';
import { tenderOf, type StoredTender, type TenderDoc } from '../tender-aggregate';
import type { Bid } from '../tender.types';

const PATH = '/api/2.5/tenders/:id/bids';

/**
 * The tender the path names, when its procedure has bids: else 404 `not_found`, as the reference answers a route no
 * view of that `procurementMethodType` serves (docs/tenders.md §Procedure types).
 */
async function loadBiddenTender(ctx: Ctx): Promise<StoredTender> {
  const stored = await loadTenderOf(ctx);
  if (!procedureOfStored(stored.doc.data).bids) throw notFound('not_found');
  return stored;
}

/** The bid the path names, with its stored tender (sealed bids included): 404 for an unknown one. */
async function loadBid(ctx: Ctx): Promise<TenderBid> {
  const stored = await loadBiddenTender(ctx);
  return { stored, bid: findBid(tenderOf(stored.doc), ctx.params.bidId) };
}

/** `owner` access of a bid: the broker that placed it, presenting the bid's own token (`bidAccess`). */
const bidOwner = ownerOf('the bid', ({ stored, bid }: TenderBid) => bidOwnership(stored.doc, bid.id));

const isBidOwner = (ctx: Ctx, doc: TenderDoc, bidId: string) => isOwner(ctx, bidOwnership(doc, bidId));

/**
 * The bid as this reader sees it (docs/tenders.md §Bids): whole for its owner; for anyone else refused while bids
 * are private (`refusal` words the 403), else as the tender shows it (masked on a restricted tender).
 */
function visibleBid(ctx: Ctx, doc: TenderDoc, bidId: string, refusal: (status: string) => string): Bid {
  const bid = findBid(tenderOf(doc), bidId);
  if (isBidOwner(ctx, doc, bidId)) return bid;
  if (bidsArePrivate(procedureOfStored(doc.data), doc.data)) throw apiError(403, refusal(doc.data.status));
  return findBid(visibleData(doc, ctx.state.viewer, TENDER_MASK), bidId);
}

/**
 * Whether this reader opens the bid's `buyerOnly` documents: the bid's owner or the tender's, with the token
 * (HEAD `validate_download_tender_document`, the tender's `DocumentSerializer`; docs/platform.md §Document fields).
 */
const opensBidConfidential = (ctx: Ctx, doc: TenderDoc, bidId: string) => isBidOwner(ctx, doc, bidId) || isOwner(ctx, doc);

/** A bid's documents as this reader sees them (spec-era `validate_view_bid_document`, `…_allowed_in_bid_status`). */
function visibleBidDocuments(ctx: Ctx, doc: TenderDoc, bidId: string) {
  const bid = visibleBid(ctx, doc, bidId, (status) => `Can't view bid documents in current (${status}) tender status`);
  const { status } = findBid(tenderOf(doc), bidId);
  if (['invalid', 'deleted'].includes(status) && !isBidOwner(ctx, doc, bidId)) {
    throw apiError(403, `Can't view bid documents in current (${status}) bid status`);
  }
  const documents = documentsOf(bid);
  return opensBidConfidential(ctx, doc, bidId) ? documents : withoutConfidentialUrls(documents);
}

/**
 * `/tenders/{id}/bids[/{bid_id}[/documents[/{document_id}]]]` (docs/tenders.md §Bids): placed by any broker, changed
 * by the bid's owner.
 */
export function bidRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  const policies = Object.values(TENDER_PROCEDURES).flatMap((p) => (p.bids ? [p.bids] : []));
  return [
    route({
      method: 'post',
      path: PATH,
      summary: "Places a bid (answers the bid's own token)",
      load: loadBiddenTender,
      access: 'broker',
      body: policies.map((p) => ({ data: p.schemas.create })),
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const { bid, access } = await createBid(ctx.state.session, stored, () => bodyData(ctx), actorOf(ctx));
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${ctx.params.id}/bids/${bid.id}`), { data: bid, access });
      },
    }),
    route({
      method: 'patch',
      path: `${PATH}/:bidId`,
      summary: 'Changes or submits a bid (its own token)',
      load: loadBid,
      access: bidOwner,
      body: policies.map((p) => ({ data: p.schemas.patch })),
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await patchBid(ctx.state.session, loaded, bodyData(ctx), ctx.state.now) };
      },
    }),
    route({
      method: 'delete',
      path: `${PATH}/:bidId`,
      summary: 'Withdraws a bid while tendering lasts',
      load: loadBid,
      access: bidOwner,
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await deleteBid(ctx.state.session, loaded, ctx.state.now) };
      },
    }),
    route({
      method: 'get',
      path: PATH,
      summary: 'Bids of a tender, once the auction is over',
      load: loadBiddenTender,
      access: 'public',
      result: 'list',
      handle: (ctx, { doc }) => {
        if (bidsArePrivate(procedureOfStored(doc.data), doc.data))
          throw apiError(403, `Can't view bids in current (${doc.data.status}) tender status`);
        ctx.body = { data: visibleData(doc, ctx.state.viewer, TENDER_MASK).bids ?? [] };
      },
    }),
    route({
      method: 'get',
      path: `${PATH}/:bidId`,
      summary: 'One bid (its owner always; others once the auction is over)',
      load: loadBiddenTender,
      access: 'public',
      result: 'object',
      handle: (ctx, { doc }) => {
        ctx.body = { data: visibleBid(ctx, doc, ctx.params.bidId, (status) => `Can't view bid in current (${status}) tender status`) };
      },
    }),
    route({
      method: 'post',
      path: `${PATH}/:bidId/requirement_responses/:responseId/evidences`,
      summary: "Adds an evidence to a bid's requirement response (the winner's, after the award)",
      // The response is found before access is checked, as the reference resolves it (404 first).
      load: async (ctx) => {
        const loaded = await loadBid(ctx);
        return { ...loaded, response: itemById(loaded.bid, 'requirementResponses', ctx.params.responseId, 'requirement_response_id') };
      },
      access: bidOwner,
      body: [{ data: evidenceSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, loaded) => {
        const evidence = await addEvidence(ctx.state.session, loaded, () => bodyData(ctx), ctx.state.now);
        ctx.status = 201;
        ctx.body = { data: evidence };
      },
    }),
    ...documentWriteRoutes<DocumentHolder & TenderBid>(deps, {
      path: `${PATH}/:bidId/documents`,
      load: async (ctx) => bidDocuments(await loadBid(ctx)),
      access: bidOwner,
      schema: tenderDocumentPatch,
      // The bidder may hide a document from all but itself and the tender's owner (docs/platform.md §Document fields).
      fields: { ...TENDER_SUB_RESOURCE_DOCUMENT_FIELDS, confidentiality: 'buyerOnly' },
    }),
    ...documentReadRoutes(deps, {
      path: `${PATH}/:bidId/documents`,
      load: async (ctx) => {
        const loaded = await loadBid(ctx);
        return { ...loaded, opens: opensBidConfidential(ctx, loaded.stored.doc, loaded.bid.id) };
      },
      visible: (ctx, { stored, bid }) => visibleBidDocuments(ctx, stored.doc, bid.id),
      stored: ({ bid }) => documentsOf(bid),
      opensConfidential: ({ opens }) => opens,
    }),
  ];
}
