import Joi from 'joi';
import { list } from '../../core/lists';
import { float } from '../../core/float';
import { isoDate } from '../../core/validation';
import { md5, model } from '../../core/parts.schema';

/** A result the auction module reports for a bid's value (`ValueResult`). */
export interface ValueResult {
  amount?: number;
  date?: string;
  currency?: string;
  valueAddedTaxIncluded?: boolean;
}

interface ParticipationUrl {
  id?: string;
  participationUrl?: string;
}

/** `PATCH /auction`. */
export interface AuctionUrls {
  auctionUrl?: string;
  bids?: ParticipationUrl[];
}

interface LotAuctionUrl {
  id?: string;
  auctionUrl?: string;
}

interface LotValueUrl {
  relatedLot?: string;
  participationUrl?: string;
}

interface BidLotValue {
  id?: string;
  lotValues?: LotValueUrl[];
}

/** `PATCH /auction/{lot_id}`. */
export interface LotAuctionUrls {
  lots: LotAuctionUrl[];
  bids: BidLotValue[];
}

/** One lot's result of a bid. */
export interface LotResult {
  relatedLot?: string;
  value?: ValueResult;
  weightedValue?: ValueResult;
  date?: string;
}

interface BidResult {
  id?: string;
  value?: ValueResult;
  weightedValue?: ValueResult;
  date?: string;
}

/** `POST /auction`. */
export interface AuctionResults {
  bids?: BidResult[];
}

interface BidLotResult {
  id?: string;
  lotValues?: LotResult[];
}

/** `POST /auction/{lot_id}`. */
export interface AuctionLotResults {
  bids: BidLotResult[];
}

/** The auction module's requests (spec-era `tender/core/procedure/models/auction.py`); positions are checked in auction-input.ts. */
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
  bids: list('bids', model<ParticipationUrl>('ParticipationUrl', { id: md5(), participationUrl: url() })),
});

/** `PATCH /auction/{lot_id}` (`LotAuctionUrls`). */
export const lotAuctionUrls = Joi.object<LotAuctionUrls, true>({
  lots: list('lots', model<LotAuctionUrl>('LotAuctionUrl', { id: md5(), auctionUrl: url() })).required(),
  bids: list(
    'bids',
    model<BidLotValue>('BidLotValue', {
      id: md5(),
      lotValues: list('lots', model<LotValueUrl>('LotValueUrl', { relatedLot: md5(), participationUrl: url() })),
    }),
  ).required(),
});

/** `POST /auction` (`AuctionResults`). */
export const auctionResults = Joi.object<AuctionResults, true>({
  bids: list('bids', model<BidResult>('BidResult', { id: md5(), value: valueResult, weightedValue: valueResult, date: isoDate() })),
});

/** `POST /auction/{lot_id}` (`AuctionLotResults`). */
export const auctionLotResults = Joi.object<AuctionLotResults, true>({
  bids: list(
    'bids',
    model<BidLotResult>('BidLotResult', {
      id: md5(),
      lotValues: list(
        'lots',
        model<LotResult>('LotResult', { relatedLot: md5(), value: valueResult, weightedValue: valueResult, date: isoDate() }),
      ),
    }),
  ).required(),
});
