import Router from '@koa/router';
import { inGroup } from '../../../http/auth';
import { bodyData } from '../../../http/body';
import type { Ctx, RequestState } from '../../../http/context';
import { apiError, forbidden } from '../../../http/errors';
import type { Doc, Stored } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import type { ObjectDoc } from '../../core/objects';
import { validated } from '../../core/validation';
import { addNextAward } from '../awards/add-next-award';
import { bidsArePrivate } from '../bids/bid.view';
import { procedureOfStored, withNextCheck } from '../tender-lifecycle';
import { activeLots, bidsNumber, STATE_MACHINE_WRITES } from '../tender-status';
import {
  applyAuctionLotResults,
  applyAuctionResults,
  applyAuctionUrls,
  applyLotAuctionUrls,
  closeAuctionPeriod,
  requireNoLots,
} from './auction-input';
import { auctionLotResults, auctionResults, auctionUrls, lotAuctionUrls } from './auction.schema';
import { loadTender, tenderOf, saveTender, type StoredTender } from '../tender-aggregate';

/** `AuctionSerializer`: what the auction module reads of a tender. */
const AUCTION_FIELDS = [
  'tenderID',
  'dateModified',
  'bids',
  'items',
  'auctionPeriod',
  'minimalStep',
  'auctionUrl',
  'features',
  'lots',
  'criteria',
  'id',
  'status',
  'title',
  'title_en',
  'description',
  'description_en',
  'procurementMethodType',
];
const BID_FIELDS = [
  'id',
  'value',
  'weightedValue',
  'lotValues',
  'date',
  'participationUrl',
  'parameters',
  'status',
  'requirementResponses',
];

const pick = (data: Doc, fields: string[]) => Object.fromEntries(fields.filter((f) => data[f] !== undefined).map((f) => [f, data[f]]));

/** The auction view: bids without their tenderers (and no awards) until the auction is over. */
function auctionView(doc: ObjectDoc): Doc {
  const open = !bidsArePrivate(doc.data);
  const data = pick(tenderOf(doc), open ? [...AUCTION_FIELDS, 'awards'] : AUCTION_FIELDS);
  if (data.bids) data.bids = (data.bids as Doc[]).map((b) => pick(b, open ? [...BID_FIELDS, 'tenderers'] : BID_FIELDS));
  return { data, config: doc.config ?? {} };
}

const OPERATION: Record<string, string> = { GET: 'get auction info', POST: 'report auction results', PATCH: 'update auction urls' };

/** The tender, for the `auction` group only, in `active.auction` (`validate_auction_tender_status`). */
async function auctionTender(ctx: Ctx): Promise<Stored & { doc: ObjectDoc }> {
  const stored = await loadTender(ctx.state.session, ctx.params.id);
  if (!inGroup(ctx.state.viewer, 'auction')) throw forbidden();
  const { status } = stored.doc.data;
  if (status !== 'active.auction') throw apiError(403, `Can't ${OPERATION[ctx.method]} in current (${status}) tender status`);
  return stored;
}

/** `validate_active_lot`. */
function requireActiveLot(ctx: Ctx, tender: Doc): string {
  const lotId = ctx.params.lotId;
  if (!activeLots(tender).some((l) => l.id === lotId)) {
    throw apiError(403, `Can ${ctx.method === 'POST' ? 'report auction results' : 'update auction urls'} only in active lot status`);
  }
  return lotId;
}

/** Saves the changed tender with its next_check, dated now, and answers the auction view. */
async function save(ctx: Ctx, stored: StoredTender, tender: Doc): Promise<void> {
  const data = { ...withNextCheck(procedureOfStored(tender), tender), dateModified: formatKyiv(ctx.state.now) };
  ctx.body = auctionView(await saveTender(ctx.state.session, stored, data, { writes: STATE_MACHINE_WRITES }));
}

/**
 * The auction module's endpoints (docs/tenders.md §Auction): `GET /tenders/{id}/auction` reads the bids,
 * `PATCH …/auction[/{lot_id}]` sets `auctionUrl` and `participationUrl`, `POST …/auction[/{lot_id}]` reports the
 * results, after which `add_next_award` runs (for lots, once every lot that had an auction has reported).
 */
export function auctionRoutes(): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/tenders/:id/auction' });
  const change = (apply: (ctx: Ctx, tender: Doc, config: Doc) => void) => async (ctx: Ctx) => {
    const stored = await auctionTender(ctx);
    const tender = structuredClone(tenderOf(stored.doc));
    apply(ctx, tender, stored.doc.config ?? {});
    await save(ctx, stored, tender);
  };

  router.get('/', async (ctx) => {
    ctx.body = auctionView((await auctionTender(ctx)).doc);
  });

  router.patch(
    '/',
    change((ctx, tender) => {
      requireNoLots(tender);
      applyAuctionUrls(tender, validated<Doc>(auctionUrls, bodyData(ctx)));
    }),
  );

  router.patch(
    '/:lotId',
    change((ctx, tender) => {
      const lotId = requireActiveLot(ctx, tender);
      applyLotAuctionUrls(tender, lotId, validated<Doc>(lotAuctionUrls, bodyData(ctx)));
    }),
  );

  router.post(
    '/',
    change((ctx, tender, config) => {
      applyAuctionResults(tender, validated<Doc>(auctionResults, bodyData(ctx)));
      addNextAward(tender, ctx.state.now, config);
      closeAuctionPeriod(tender, ctx.state.now);
    }),
  );

  router.post(
    '/:lotId',
    change((ctx, tender, config) => {
      const lotId = requireActiveLot(ctx, tender);
      applyAuctionLotResults(tender, lotId, validated<Doc>(auctionLotResults, bodyData(ctx)));
      closeAuctionPeriod(
        tender.lots.find((l: Doc) => l.id === lotId),
        ctx.state.now,
      );
      const auctioned = activeLots(tender).filter((l) => bidsNumber(tender, l.id) > 1);
      if (auctioned.every((l) => l.auctionPeriod?.endDate)) addNextAward(tender, ctx.state.now, config);
    }),
  );

  return router;
}
