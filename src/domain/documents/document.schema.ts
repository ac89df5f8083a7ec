import Joi from 'joi';
import type { DocumentFields } from '../core/document-host';
import { documentHash, md5 } from '../core/parts.schema';

/** The reference's document types (`api/procedure/models/document.py::DOCUMENT_TYPES`). */
const DOCUMENT_TYPES = [
  'tenderNotice',
  'awardNotice',
  'contractNotice',
  'notice',
  'biddingDocuments',
  'technicalSpecifications',
  'evaluationCriteria',
  'clarifications',
  'shortlistedFirms',
  'riskProvisions',
  'billOfQuantity',
  'bidders',
  'conflictOfInterest',
  'debarments',
  'evaluationReports',
  'winningBid',
  'complaints',
  'contractSigned',
  'contractArrangements',
  'contractSchedule',
  'contractAnnexe',
  'contractGuarantees',
  'subContract',
  'eligibilityCriteria',
  'contractProforma',
  'commercialProposal',
  'qualificationDocuments',
  'eligibilityDocuments',
  'registerExtract',
  'registerUSR',
  'registerFiscal',
  'evidence',
  'register',
  'cancellationReport',
  'acceptanceReport',
];

/**
 * A tender's documents (its own, its bids', awards' and cancellations') also take the types HEAD's tender list adds
 * (`tender/core/procedure/models/document.py::DOCUMENT_TYPES`): `proposal` is what a bid's documents are.
 */
export const TENDER_DOCUMENT_TYPES = [...DOCUMENT_TYPES, 'proposal', 'extensionReport', 'deviationReport'];

/**
 * What a tender's own documents carry beyond the file (docs/platform.md §Document fields): `documentOf` `tender`
 * unless changed, `relatedItem` naming one of its lots or items, `public` only, `author` its owner's role.
 */
export const TENDER_DOCUMENT_FIELDS: DocumentFields = {
  documentOf: 'tender',
  confidentiality: 'public',
  language: 'uk',
  author: 'tender_owner',
  related: { lot: 'lots', item: 'items' },
};

/**
 * What the documents of a tender's bids, awards and cancellations carry beyond the file: `documentOf` `tender` and
 * `public` on upload, as their recordings show, and a `relatedItem` naming one of the tender's lots or items
 * (docs/platform.md §Document fields).
 */
export const TENDER_SUB_RESOURCE_DOCUMENT_FIELDS: DocumentFields = {
  documentOf: 'tender',
  confidentiality: 'public',
  language: 'uk',
  related: { lot: 'lots', item: 'items' },
};

const format = () =>
  Joi.string()
    .pattern(/^[-\w]+\/[-.\w+]+$/)
    .messages({ 'string.pattern.base': 'String value did not match validation regex.' });

// `null` removes a stored text (`none_means_remove`); a choice is replaced, never removed.
const text = () => Joi.string().allow(null);

/**
 * `PATCH …/documents/{id}`: the metadata the reference's `PatchDocument` lets the owner change; `documentOf`
 * only where the kind's documents point at parts of it (docs/platform.md §Document versions), `confidentiality`
 * and its reason only where they have it (docs/platform.md §Document fields).
 */
export function documentPatchSchema(
  documentOf: readonly string[] | undefined,
  types: readonly string[] = DOCUMENT_TYPES,
  fields?: DocumentFields,
): Joi.ObjectSchema {
  return Joi.object({
    title: text(),
    title_en: text(),
    title_ru: text(),
    description: text(),
    description_en: text(),
    description_ru: text(),
    format: format().allow(null),
    language: Joi.string().valid('uk', 'en', 'ru'),
    documentType: Joi.string().valid(...types),
    relatedItem: md5().allow(null),
    ...(documentOf ? { documentOf: Joi.string().valid(...documentOf) } : {}),
    ...(fields?.confidentiality ? { confidentiality: Joi.string().valid('public', 'buyerOnly'), confidentialityRationale: text() } : {}),
  });
}

/**
 * `POST …/documents` (and `PUT …/{id}`) as JSON naming the document service's signed `url`
 * (docs/platform.md §Document service): the holder's PATCH fields, with `title`, `format` and `url` required as the reference's
 * `PostDocument` has them, and `hash` (`md5:` only: it is what the service signs).
 */
export function documentPostSchema(patch: Joi.ObjectSchema): Joi.ObjectSchema {
  return patch.keys({
    title: Joi.string().required(),
    format: format().required(),
    url: Joi.string().required(),
    hash: documentHash(),
  });
}

/**
 * A document sent inside a resource's POST body (a complaint's, an appeal's): a JSON document POST's members, and
 * the `id` the request may name so that the body's other parts (an objection's evidence) can point at it
 * (the reference's `PostDocument.id`, defaulted when absent).
 */
export const bodyDocumentSchema = (patch: Joi.ObjectSchema): Joi.ObjectSchema => documentPostSchema(patch).keys({ id: md5() });
