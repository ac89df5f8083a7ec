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
  { type: 'boolean'; allowed: boolean[]; default: boolean } | { type: 'integer'; minimum: number; maximum: number; default: number };

/** Allowed values and defaults of one procedure type (standards `TenderConfig/{type}.json`, docs/tenders.md §Tender config). */
export type ConfigSpec = Record<TenderConfigKey, ConfigRule>;

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
 * Validates `config` against the procedure's spec, fills defaults for missing keys and keeps only the 11 keys.
 * Spec-era texts: jsonschema's message, the error name the bare key (docs/tenders.md §Tender config errors).
 */
export function validateTenderConfig(spec: ConfigSpec, raw: Record<string, unknown> | undefined): TenderConfig {
  const unknown = Object.keys(raw ?? {}).find((key) => !isKnownKey(key));
  if (unknown !== undefined) {
    throw apiError(422, `Additional properties are not allowed ('${unknown}' was unexpected)`, { name: 'config' });
  }
  const config: Record<string, unknown> = {};
  for (const key of TENDER_CONFIG_KEYS) {
    const rule = spec[key];
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
