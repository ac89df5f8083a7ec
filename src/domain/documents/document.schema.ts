import Joi from 'joi';
import { md5 } from '../tender/parts.schema';

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

// `null` removes a stored text (`none_means_remove`); a choice is replaced, never removed.
const text = () => Joi.string().allow(null);

/**
 * `PATCH …/documents/{id}`: the metadata the reference's `PatchDocument` lets the owner change; `documentOf`
 * only where the kind's documents point at parts of it (docs/platform.md §Document versions).
 */
export function documentPatchSchema(
  documentOf: readonly string[] | undefined,
  types: readonly string[] = DOCUMENT_TYPES,
): Joi.ObjectSchema {
  return Joi.object({
    title: text(),
    title_en: text(),
    title_ru: text(),
    description: text(),
    description_en: text(),
    description_ru: text(),
    format: text()
      .pattern(/^[-\w]+\/[-.\w+]+$/)
      .messages({ 'string.pattern.base': 'String value did not match validation regex.' }),
    language: Joi.string().valid('uk', 'en', 'ru'),
    documentType: Joi.string().valid(...types),
    relatedItem: md5().allow(null),
    ...(documentOf ? { documentOf: Joi.string().valid(...documentOf) } : {}),
  });
}
