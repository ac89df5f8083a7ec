import { apiError } from '../../http/errors';
import { pythonRepr } from '../core/python-repr';
import type { TenderConfig } from './tender.types';

/** The spec's 11 tender config keys, in the spec's order. */
export const TENDER_CONFIG_KEYS = [
  'hasAuction',
  'hasAwardingOrder',
  'hasValueRestriction',
  'valueCurrencyEquality',
  'hasPrequalification',
  'minBidsNumber',
  'hasPreSelectionAgreement',
  'hasTenderComplaints',
  'hasAwardComplaints',
  'hasCancellationComplaints',
  'restricted',
] as const;

export type TenderConfigKey = (typeof TENDER_CONFIG_KEYS)[number];

export type ConfigRule =
  | { type: 'boolean'; allowed: boolean[]; default: boolean }
  | { type: 'integer'; minimum: number; maximum: number; default: number; allowed?: number[] };

/**
 * Allowed values and defaults of one procedure type (docs/tenders.md §Tender config): the spec's keys, and those of
 * the reference's keys the procedure keeps because its rules read them (standards `TenderConfig/{type}.json`).
 */
export type ConfigSpec = Record<TenderConfigKey, ConfigRule> & Partial<Record<KeptReferenceKey, ConfigRule>>;

/** The reference's keys beyond the spec's that a procedure may keep (docs/tenders.md §aboveThreshold). */
type KeptReferenceKey = 'minTenderingDuration';

export const either = (d: boolean): ConfigRule => ({ type: 'boolean', allowed: [true, false], default: d });
export const only = (v: boolean): ConfigRule => ({ type: 'boolean', allowed: [v], default: v });

/**
 * Keys the reference's tender config schemas know besides the spec's (standards `TenderConfig/*.json`, as its
 * 1.0.274 answers list them): accepted and not kept, since this product's procedures fix what they set. Any other
 * key is refused (docs/tenders.md §Tender config errors).
 */
const REFERENCE_ONLY_KEYS = new Set([
  'hasValueEstimation',
  'hasQualificationComplaints',
  'tenderComplainRegulation',
  'qualificationComplainDuration',
  'awardComplainDuration',
  'cancellationComplainDuration',
  'clarificationUntilDuration',
  'qualificationDuration',
  'minTenderingDuration',
  'hasEnquiries',
  'minEnquiriesDuration',
  'enquiryPeriodRegulation',
  'hasMultiSourcing',
]);
const isKnownKey = (key: string) => (TENDER_CONFIG_KEYS as readonly string[]).includes(key) || REFERENCE_ONLY_KEYS.has(key);

/**
 * Validates `config` against the procedure's spec, fills defaults for missing keys and keeps only the spec's keys
 * (the 11, and the reference's the procedure keeps).
 * Spec-era texts: jsonschema's message, the error name the bare key (docs/tenders.md §Tender config errors).
 */
export function validateTenderConfig(spec: ConfigSpec, raw: Record<string, unknown> | undefined): TenderConfig {
  const unknown = Object.keys(raw ?? {}).find((key) => !isKnownKey(key));
  if (unknown !== undefined) {
    throw apiError(422, `Additional properties are not allowed ('${unknown}' was unexpected)`, { name: 'config' });
  }
  const config: Record<string, unknown> = {};
  const kept = Object.keys(spec).filter((key) => !(TENDER_CONFIG_KEYS as readonly string[]).includes(key)) as KeptReferenceKey[];
  for (const key of [...TENDER_CONFIG_KEYS, ...kept]) {
    const rule = spec[key]!;
    const value = raw?.[key];
    if (value === undefined) {
      config[key] = rule.default;
      continue;
    }
    const fail = (text: string) => apiError(422, text, { name: key });
    if (rule.type === 'boolean') {
      if (typeof value !== 'boolean') throw fail(`${pythonRepr(value)} is not of type 'boolean'`);
      if (!rule.allowed.includes(value)) throw fail(`${pythonRepr(value)} is not one of [${rule.allowed.map(pythonRepr).join(', ')}]`);
    } else {
      if (typeof value !== 'number' || !Number.isInteger(value)) throw fail(`${pythonRepr(value)} is not of type 'integer'`);
      // A standards `enum` of integers (its bounds are `minimum` and `maximum` for the API description).
      if (rule.allowed && !rule.allowed.includes(value)) throw fail(`${value} is not one of [${rule.allowed.join(', ')}]`);
      if (value < rule.minimum) throw fail(`${value} is less than the minimum of ${rule.minimum}`);
      if (value > rule.maximum) throw fail(`${value} is greater than the maximum of ${rule.maximum}`);
    }
    config[key] = value;
  }
  if (config.valueCurrencyEquality === false && (config.hasAuction || config.hasAwardingOrder || config.hasValueRestriction)) {
    throw apiError(
      422,
      ['valueCurrencyEquality can be False only if hasAuction=False and hasAwardingOrder=False and hasValueRestriction=False'],
      { name: 'valueCurrencyEquality' },
    );
  }
  return config;
}
