import Joi from 'joi';
import { text } from '../../core/organization.schema';
import { float } from '../../core/float';
import { list } from '../../core/lists';
import { businessOrganizationSchema, md5, model, unitSchema, valueSchema } from '../../core/parts.schema';
import { requirementResponsesSchema } from './requirement-response.schema';
import type { BidItem, BidRequest, BidStatus, LotValueRequest, Parameter } from '../tender.types';

/**
 * Bid requests (docs/tenders.md §Bids): the reference's `PostBid` / `PatchBid` of the spec era. Documents are
 * not accepted inline: they are uploaded to `/bids/{bid_id}/documents` as files. `model<T>` builds
 * `Joi.object<T, true>`, which holds each schema's members to the tender's types (tender.types.ts).
 */

export const BID_STATUSES: BidStatus[] = ['draft', 'pending', 'active', 'invalid', 'invalid.pre-qualification', 'unsuccessful', 'deleted'];

const lotValueKeys: Joi.StrictSchemaMap<LotValueRequest> = {
  value: valueSchema,
  relatedLot: md5(),
  subcontractingDetails: text(),
  status: Joi.string().valid('pending'),
};

const postLotValue = model('LotValue', lotValueKeys).fork(['value', 'relatedLot'], (s) => s.required());
const patchLotValue = model('LotValue', lotValueKeys);

/** The reference's `BaseItem` of a bid: the tender item it prices. */
const bidItem = model<BidItem>('Item', {
  id: text().required(),
  description: text(),
  description_en: text(),
  description_ru: text(),
  quantity: float().min(0),
  unit: unitSchema,
  relatedLot: md5(),
});

const parameter = model<Parameter>('Parameter', { code: text().required(), value: float().required() });

const bidKeys = {
  tenderers: list('tenderers', businessOrganizationSchema).min(1).max(1),
  value: valueSchema,
  items: list('items', bidItem).min(1).unique('id'),
  parameters: list('features', parameter).unique('code'),
  subcontractingDetails: text(),
  status: Joi.string().valid(...BID_STATUSES),
  requirementResponses: requirementResponsesSchema,
};

/**
 * competitiveOrdering (HEAD `competitiveordering/procedure/models/bid.py`): the self-declarations, `true` only; the
 * requirement responses replace `selfEligible`, which is then `Rogue field.` (docs/tenders.md §Bids).
 */
const selfDeclarations = {
  selfEligible: Joi.boolean().custom((v: boolean, h) =>
    v ? h.message({ custom: 'Rogue field.' }) : h.error('any.only', { valids: [true] }),
  ),
  selfQualified: Joi.boolean().valid(true),
};

const createKeys = { ...bidKeys, tenderers: bidKeys.tenderers.required(), lotValues: list('lots', postLotValue) };
const patchKeys = { ...bidKeys, lotValues: list('lots', patchLotValue) };

type WithoutSelfDeclarations = Omit<BidRequest, keyof typeof selfDeclarations>;

export const createBid = Joi.object<WithoutSelfDeclarations, true>(createKeys);
export const patchBid = Joi.object<WithoutSelfDeclarations, true>(patchKeys);
export const createCompetitiveOrderingBid = Joi.object<BidRequest, true>({ ...createKeys, ...selfDeclarations });
export const patchCompetitiveOrderingBid = Joi.object<BidRequest, true>({ ...patchKeys, ...selfDeclarations });
