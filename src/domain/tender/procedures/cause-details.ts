import { isDeepStrictEqual } from 'node:util';
import Joi from 'joi';
import { apiError } from '../../../http/errors';
import type { TenderRule } from '../procedure';
import type { TenderContent } from '../tender.types';

/**
 * Why a tender of the reference's `limited` package was not competed for: its `causeDetails`
 * (docs/tenders.md §reporting, "Cause"; docs/tenders.md §negotiation and negotiation.quick).
 */
export interface CauseDetails {
  code: string;
  title?: string;
  title_en?: string;
  scheme?: 'DECREE1178' | 'LAW922' | 'DECREE1275';
  description?: string;
  description_en?: string;
  uri?: string;
}

/** The cause members of such a tender: `causeDetails` only; the older ones are refused. */
export interface TenderCause {
  causeDetails?: CauseDetails;
  cause?: string;
  causeDescription?: string;
  causeDescription_en?: string;
  causeDescription_ru?: string;
}

/** One entry of a standards cause list: what the server fills in from a `causeDetails.code`. */
export interface CauseEntry {
  scheme: 'DECREE1178' | 'LAW922' | 'DECREE1275';
  title: string;
  title_en: string;
  uri: string;
}

const causeDetailsSchema = Joi.object<CauseDetails, true>({
  code: Joi.string().required(),
  title: Joi.string(),
  title_en: Joi.string(),
  scheme: Joi.string().valid('DECREE1178', 'LAW922', 'DECREE1275'),
  description: Joi.string(),
  description_en: Joi.string(),
  uri: Joi.string(),
}).label('CauseDetails');

/**
 * The cause members of the reference's `Post…Tender` models (`cause` and its descriptions are accepted here and
 * refused by `causeRequired`, as the reference refuses them after its model).
 */
export const causeMembers: Joi.StrictSchemaMap<TenderCause> = {
  causeDetails: causeDetailsSchema,
  cause: Joi.string(),
  causeDescription: Joi.string(),
  causeDescription_en: Joi.string(),
  causeDescription_ru: Joi.string(),
};

const OLDER = ['cause', 'causeDescription', 'causeDescription_en', 'causeDescription_ru'] as const;

/**
 * `validate_cause_required` for tenders made after `CAUSE_DETAILS_REQUIRED_FROM` (2023-06-25, so every tender here):
 * `causeDetails` where `isRequired` says the tender needs a cause, and never the older `cause` members.
 */
export const causeRequired =
  (isRequired: (t: TenderContent) => boolean): TenderRule =>
  (t) => {
    const cause = t as TenderContent & TenderCause;
    if (!cause.causeDetails && isRequired(t)) throw apiError(422, 'This field is required.', { name: 'causeDetails' });
    for (const name of OLDER) if (cause[name]) throw apiError(422, 'Rogue field.', { name });
  };

/**
 * `set_cause_details_data`, when `causeDetails` is new or changed: a code of the procedure's list (`causes`), with
 * a description; the list's scheme, titles and uri replace the client's.
 */
export function causeDetailsFromList(causes: Record<string, CauseEntry>): TenderRule {
  const codes = `[${Object.keys(causes)
    .map((code) => `'${code}'`)
    .join(', ')}]`;
  return (t, { before }) => {
    const tender = t as TenderContent & TenderCause;
    const details = tender.causeDetails;
    if (!details || isDeepStrictEqual(details, (before as TenderCause | undefined)?.causeDetails)) return;
    const entry = Object.hasOwn(causes, details.code) ? causes[details.code] : undefined;
    if (!entry) throw apiError(422, { code: [`Value must be one of ${codes}.`] }, { name: 'causeDetails' });
    if (!details.description) throw apiError(422, { description: ['This field is required.'] }, { name: 'causeDetails' });
    tender.causeDetails = { ...details, ...entry };
  };
}
