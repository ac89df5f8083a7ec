import Joi from 'joi';
import { list } from '../../core/lists';
import { float } from '../../core/float';
import { isoDate } from '../../core/validation';
import { md5 } from '../../core/parts.schema';

/** The auction module's requests (spec-era `tender/core/procedure/models/auction.py`); positions are checked in auction-input.ts. */
const model = (name: string, keys: Joi.PartialSchemaMap) => Joi.object(keys).label(name);
const url = () => Joi.string().uri({ scheme: ['http', 'https'] });

const valueResult = model('ValueResult', {
  amount: float().min(0),
  date: isoDate(),
  currency: Joi.string(),
  valueAddedTaxIncluded: Joi.boolean(),
});

/** `PATCH /auction` (`AuctionUrls`). */
export const auctionUrls = Joi.object({
  auctionUrl: url(),
  bids: list('bids', model('ParticipationUrl', { id: md5(), participationUrl: url() })),
});

/** `PATCH /auction/{lot_id}` (`LotAuctionUrls`). */
export const lotAuctionUrls = Joi.object({
  lots: list('lots', model('LotAuctionUrl', { id: md5(), auctionUrl: url() })).required(),
  bids: list(
    'bids',
    model('BidLotValue', { id: md5(), lotValues: list('lots', model('LotValueUrl', { relatedLot: md5(), participationUrl: url() })) }),
  ).required(),
});

/** `POST /auction` (`AuctionResults`). */
export const auctionResults = Joi.object({
  bids: list('bids', model('BidResult', { id: md5(), value: valueResult, weightedValue: valueResult, date: isoDate() })),
});

/** `POST /auction/{lot_id}` (`AuctionLotResults`). */
export const auctionLotResults = Joi.object({
  bids: list(
    'bids',
    model('BidLotResult', {
      id: md5(),
      lotValues: list('lots', model('LotResult', { relatedLot: md5(), value: valueResult, weightedValue: valueResult, date: isoDate() })),
    }),
  ).required(),
});
