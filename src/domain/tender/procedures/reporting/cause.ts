import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../../../http/errors';
import type { TenderRule } from '../../procedure';
import type { TenderContent } from '../../tender.types';
import { REPORTING_CAUSES } from './causes';

/** Why a reporting tender was not competed for (docs/tenders.md §reporting, "Cause"). */
export interface CauseDetails {
  code: string;
  title?: string;
  title_en?: string;
  scheme?: 'DECREE1178' | 'LAW922' | 'DECREE1275';
  description?: string;
  description_en?: string;
  uri?: string;
}

/** The cause members of a reporting tender: `causeDetails` only; the older ones are refused. */
export interface ReportingCause {
  causeDetails?: CauseDetails;
  cause?: string;
  causeDescription?: string;
  causeDescription_en?: string;
  causeDescription_ru?: string;
}

const OLDER = ['cause', 'causeDescription', 'causeDescription_en', 'causeDescription_ru'] as const;

/** `VALUE_AMOUNT_THRESHOLD`: from these amounts on, by category, a reporting tender names its cause. */
const THRESHOLD = { goods: 100000, services: 200000, works: 1500000 };

/** `reporting_cause_is_required`: a procuring entity other than `other`, no rationale, a value at the threshold. */
function causeIsRequired(t: TenderContent): boolean {
  const category = t.mainProcurementCategory;
  return t.procuringEntity.kind !== 'other' && !t.procurementMethodRationale && !!category && t.value.amount >= THRESHOLD[category];
}

/**
 * `validate_cause_required` for tenders made after `CAUSE_DETAILS_REQUIRED_FROM` (2023-06-25, so every tender here):
 * `causeDetails` where the cause is required, and never the older `cause` members.
 */
export const causeRequired: TenderRule = (t) => {
  const cause = t as TenderContent & ReportingCause;
  if (!cause.causeDetails && causeIsRequired(t)) throw apiError(422, 'This field is required.', { name: 'causeDetails' });
  for (const name of OLDER) if (cause[name]) throw apiError(422, 'Rogue field.', { name });
};

const CODES = `[${Object.keys(REPORTING_CAUSES)
  .map((code) => `'${code}'`)
  .join(', ')}]`;

/**
 * `set_cause_details_data`, when `causeDetails` is new or changed: a code of the list, with a description; the
 * list's scheme, titles and uri replace the client's.
 */
export const causeDetailsFromList: TenderRule = (t, { before }) => {
  const tender = t as TenderContent & ReportingCause;
  const details = tender.causeDetails;
  if (!details || isDeepStrictEqual(details, (before as ReportingCause | undefined)?.causeDetails)) return;
  const entry = Object.hasOwn(REPORTING_CAUSES, details.code) ? REPORTING_CAUSES[details.code] : undefined;
  if (!entry) throw apiError(422, { code: [`Value must be one of ${CODES}.`] }, { name: 'causeDetails' });
  if (!details.description) throw apiError(422, { description: ['This field is required.'] }, { name: 'causeDetails' });
  tender.causeDetails = { ...details, ...entry };
};
