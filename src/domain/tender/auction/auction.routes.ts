import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { route, type MountableRoute } from '../../../http/route';
import { bidsArePrivate } from '../bids/bid.view';
import { procedureOfStored } from '../tender.lifecycle';
import { loadTenderOf } from '../tender.routes';
import { tenderOf, type StoredTender, type TenderDoc } from '../tender-aggregate';
import type { TenderConfig } from '../tender.types';
import {
  reportAuctionResults,
  reportLotAuctionResults,
  requireAuctionStatus,
  setAuctionUrls,
  setLotAuctionUrls,
} from './auction.lifecycle';
import { auctionLotResults, auctionResults, auctionUrls, lotAuctionUrls } from './auction.schema';

/**
 * `AuctionSerializer`: what the auction module reads of a tender; with HEAD's additions (`mode`, `awardCriteria`,
 * `procuringEntity`, `value`, `submissionMethodDetails` and the ESCO fields, none of which the spec era's lacked
 * for a reason: they were commented out), docs/tenders.md §Auction.
 */
const AUCTION_FIELDS = [
  'mode',
  'awardCriteria',
  'procuringEntity',
  'value',
  'minimalStepPercentage',
  'submissionMethodDetails',
  'NBUdiscountRate',
  'noticePublicationDate',
  'fundingKind',
  'yearlyPaymentsPercentageRange',
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

/** The listed members the object has (the auction's fields include some no procedure here has). */
const pick = (data: object, fields: string[]): Record<string, unknown> => {
  const members = data as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => members[f] !== undefined).map((f) => [f, members[f]]));
};

/** The auction view: bids without their tenderers (and no awards) until the auction is over. */
function auctionView(doc: TenderDoc): { data: Record<string, unknown>; config: TenderConfig } {
  const open = !bidsArePrivate(procedureOfStored(doc.data), doc.data);
  const tender = tenderOf(doc);
  const data = pick(tender, open ? [...AUCTION_FIELDS, 'awards'] : AUCTION_FIELDS);
  if (tender.bids) data.bids = tender.bids.map((b) => pick(b, open ? [...BID_FIELDS, 'tenderers'] : BID_FIELDS));
  return { data, config: doc.config ?? {} };
}

/** The auction module's key, whatever the tender's status (which the lifecycle checks after it). */
const AUCTION = { system: ['auction'] } as const;
const PATH = '/api/2.5/tenders/:id/auction';

/** A change by the auction module, answered with the auction view of the tender as saved. */
const answered =
  (change: (ctx: Ctx, stored: StoredTender) => Promise<TenderDoc>) =>
  async (ctx: Ctx, stored: StoredTender): Promise<void> => {
    ctx.body = auctionView(await change(ctx, stored));
  };

/**
 * The auction module's endpoints (docs/tenders.md §Auction), for the `auction` group on a tender in `active.auction`:
 * `GET /tenders/{id}/auction` reads the bids, `PATCH …/auction[/{lot_id}]` sets `auctionUrl` and
 * `participationUrl`, `POST …/auction[/{lot_id}]` reports the results.
 */
export function auctionRoutes(): MountableRoute[] {
  return [
    route({
      method: 'get',
      path: PATH,
      summary: 'The auction view of a tender in active.auction',
      load: loadTenderOf,
      access: AUCTION,
      result: 'object',
      handle: (ctx, stored) => {
        requireAuctionStatus(stored.doc.data, 'get auction info');
        ctx.body = auctionView(stored.doc);
      },
    }),
    route({
      method: 'patch',
      path: PATH,
      summary: 'Sets the auction and participation urls',
      load: loadTenderOf,
      access: AUCTION,
      body: [{ data: auctionUrls }],
      result: 'object',
      writes: true,
      handle: answered((ctx, stored) => setAuctionUrls(ctx.state.session, stored, () => bodyData(ctx), ctx.state.now)),
    }),
    route({
      method: 'patch',
      path: `${PATH}/:lotId`,
      summary: "Sets a lot's auction and participation urls",
      load: loadTenderOf,
      access: AUCTION,
      body: [{ data: lotAuctionUrls }],
      result: 'object',
      writes: true,
      handle: answered((ctx, stored) => setLotAuctionUrls(ctx.state.session, stored, ctx.params.lotId, () => bodyData(ctx), ctx.state.now)),
    }),
    route({
      method: 'post',
      path: PATH,
      summary: 'Reports the auction results',
      load: loadTenderOf,
      access: AUCTION,
      body: [{ data: auctionResults }],
      result: 'object',
      writes: true,
      handle: answered((ctx, stored) => reportAuctionResults(ctx.state.session, stored, () => bodyData(ctx), ctx.state.now)),
    }),
    route({
      method: 'post',
      path: `${PATH}/:lotId`,
      summary: "Reports a lot's auction results",
      load: loadTenderOf,
      access: AUCTION,
      body: [{ data: auctionLotResults }],
      result: 'object',
      writes: true,
      handle: answered((ctx, stored) =>
        reportLotAuctionResults(ctx.state.session, stored, ctx.params.lotId, () => bodyData(ctx), ctx.state.now),
      ),
    }),
  ];
}
