import Joi from 'joi';
import { list } from '../../core/lists';
import { float } from '../../core/float';
import { isoDate } from '../../core/validation';
import { md5 } from '../../core/parts.schema';

/** A result the auction module reports for a bid's value (`ValueResult`). */
export interface ValueResult {
  amount?: number;
  date?: string;
  currency?: string;
  valueAddedTaxIncluded?: boolean;
}

/** `PATCH /auction`. */
export interface AuctionUrls {
  auctionUrl?: string;
  bids?: { id?: string; participationUrl?: string }[];
}

/** `PATCH /auction/{lot_id}`. */
export interface LotAuctionUrls {
  lots: { id?: string; auctionUrl?: string }[];
  bids: { id?: string; lotValues?: { relatedLot?: string; participationUrl?: string }[] }[];
}

/** One lot's result of a bid. */
export interface LotResult {
  relatedLot?: string;
  value?: ValueResult;
  weightedValue?: ValueResult;
  date?: string;
}

/** `POST /auction`. */
export interface AuctionResults {
  bids?: { id?: string; value?: ValueResult; weightedValue?: ValueResult; date?: string }[];
}

/** `POST /auction/{lot_id}`. */
export interface AuctionLotResults {
  bids: { id?: string; lotValues?: LotResult[] }[];
}

/** The auction module's requests (spec-era `tender/core/procedure/models/auction.py`); positions are checked in auction-input.ts. */
const model = (name: string, keys: Joi.PartialSchemaMap) => Joi.object(keys).label(name);
const url = () => Joi.string().uri({ scheme: ['http', 'https'] });

const valueResult = Joi.object<ValueResult, true>({
  amount: float().min(0),
  date: isoDate(),
  currency: Joi.string(),
  valueAddedTaxIncluded: Joi.boolean(),
}).label('ValueResult');

/** `PATCH /auction` (`AuctionUrls`). */
export const auctionUrls = Joi.object<AuctionUrls, true>({
  auctionUrl: url(),
  bids: list('bids', model('ParticipationUrl', { id: md5(), participationUrl: url() })),
});

/** `PATCH /auction/{lot_id}` (`LotAuctionUrls`). */
export const lotAuctionUrls = Joi.object<LotAuctionUrls, true>({
  lots: list('lots', model('LotAuctionUrl', { id: md5(), auctionUrl: url() })).required(),
  bids: list(
    'bids',
    model('BidLotValue', { id: md5(), lotValues: list('lots', model('LotValueUrl', { relatedLot: md5(), participationUrl: url() })) }),
  ).required(),
});

/** `POST /auction` (`AuctionResults`). */
export const auctionResults = Joi.object<AuctionResults, true>({
  bids: list('bids', model('BidResult', { id: md5(), value: valueResult, weightedValue: valueResult, date: isoDate() })),
});

/** `POST /auction/{lot_id}` (`AuctionLotResults`). */
export const auctionLotResults = Joi.object<AuctionLotResults, true>({
  bids: list(
    'bids',
    model('BidLotResult', {
      id: md5(),
      lotValues: list('lots', model('LotResult', { relatedLot: md5(), value: valueResult, weightedValue: valueResult, date: isoDate() })),
    }),
  ).required(),
});
