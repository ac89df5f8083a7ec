import Joi from 'joi';
import { list } from './lists';
import { float } from './float';
import { isoDate } from './validation';

/** Shared structures of the spec (Organization, Value, Period, Classification, Item, Document) as request shapes. */
const text = () => Joi.string().min(1);
const translated = (name: string) => ({ [name]: text(), [`${name}_en`]: text(), [`${name}_ru`]: text() });
const model = (name: string, keys: Joi.PartialSchemaMap) => Joi.object(keys).label(name);
/** Client-given ids: 32 hexadecimal characters (schematics `MD5Type`). */
export const md5 = () => Joi.string().hex().length(32);

/** Spec-era currency codelist (standards `tender_currency.json` at bf204442, docs/tenders.md §Value and currency). */
export const CURRENCIES = ['UAH', 'USD', 'EUR', 'GBP', 'RUB'] as const;
const currency = () =>
  Joi.string().custom((value: string, helpers) =>
    (CURRENCIES as readonly string[]).includes(value)
      ? value
      : helpers.message({ custom: `Currency must be only ${CURRENCIES.join(', ')}.` }),
  );

export const valueSchema = model('Value', {
  amount: float().min(0).required(),
  currency: currency(),
  valueAddedTaxIncluded: Joi.boolean(),
});

export const contractValueSchema = model('ContractValue', {
  amount: float().min(0),
  amountNet: float().min(0),
  currency: currency(),
  valueAddedTaxIncluded: Joi.boolean(),
});

export const periodSchema = model('Period', { startDate: isoDate(), endDate: isoDate() });

export const addressSchema = model('Address', {
  ...translated('streetAddress'),
  ...translated('locality'),
  ...translated('region'),
  ...translated('postalCode'),
  ...translated('countryName'),
});

export const contactPointSchema = model('ContactPoint', {
  ...translated('name'),
  email: Joi.string().email({ tlds: false }),
  telephone: text(),
  faxNumber: text(),
  url: text(),
}).custom((cp: Record<string, unknown>, helpers) =>
  cp.telephone || cp.email ? cp : helpers.message({ custom: 'telephone or email should be present' }),
);

const identifierSchema = model('Identifier', { scheme: text(), id: text().required(), uri: text(), ...translated('legalName') });

export const signerInfoSchema = model('SignerInfo', {
  name: text(),
  email: Joi.string().email({ tlds: false }),
  telephone: text(),
  iban: text(),
  position: text(),
  authorizedBy: text(),
});

const organizationKeys = {
  ...translated('name'),
  identifier: identifierSchema.required(),
  additionalIdentifiers: list('additionalIdentifiers', identifierSchema),
  address: addressSchema.required(),
  contactPoint: contactPointSchema,
  additionalContactPoints: list('additionalContactPoints', contactPointSchema),
};

export const PROCURING_ENTITY_KINDS = ['authority', 'central', 'defense', 'general', 'other', 'social', 'special'];

export const procuringEntitySchema = model('ProcuringEntity', {
  ...organizationKeys,
  contactPoint: contactPointSchema.required(),
  kind: Joi.string().valid(...PROCURING_ENTITY_KINDS),
  signerInfo: signerInfoSchema,
}).fork(['name'], (s) => s.required());

export const SCALES = ['micro', 'sme', 'mid', 'large', 'not specified'];

/** A business organization (tenderers, suppliers); `scale` becomes required by date (versioned-rules.ts). */
export const businessOrganizationSchema = model('BusinessOrganization', {
  ...organizationKeys,
  scale: Joi.string().valid(...SCALES),
  signerInfo: signerInfoSchema,
}).fork(['name'], (s) => s.required());

export const classificationSchema = model('Classification', {
  scheme: text().required(),
  id: text().required(),
  description: text().required(),
  uri: text(),
});

/** Item classification: scheme ДК021 and a CPV-shaped code. */
export const cpvSchema = model('CPVClassification', {
  scheme: Joi.string().valid('ДК021').required(),
  id: Joi.string()
    .pattern(/^\d{8}-\d$/)
    .required()
    .messages({ 'string.pattern.base': 'Value must be one of ДК021 codes' }),
  description: text().required(),
  uri: text(),
});

export const unitSchema = model('Unit', { name: text(), code: text().required(), value: valueSchema });

export const itemKeys = {
  id: text(),
  ...translated('description'),
  classification: cpvSchema.required(),
  additionalClassifications: list('additionalClassifications', classificationSchema),
  unit: unitSchema.required(),
  quantity: float().min(0),
  relatedLot: text(),
  deliveryDate: periodSchema,
  deliveryAddress: addressSchema,
  deliveryLocation: model('Location', { latitude: Joi.number(), longitude: Joi.number(), elevation: Joi.number() }),
};

export const itemSchema = model('Item', itemKeys).fork(['description'], (s) => s.required());

/** `md5:<32 hex digits>`, checked in the reference's order (`HashType`): type, length, digits. */
function md5Hash(value: string, helpers: Joi.CustomHelpers) {
  const [type, digits] = value.includes(':') ? value.split(':', 2) : [];
  if (type !== 'md5') return helpers.error('string.hashType');
  if (digits.length !== 32) return helpers.error('string.length');
  return /^[0-9a-f]+$/.test(digits) ? value : helpers.error('string.hex');
}

export const documentSchema = model('Document', {
  id: md5(),
  ...translated('title'),
  ...translated('description'),
  format: text(),
  // Only web addresses: a `javascript:` or `data:` link would run in every portal that shows it (docs/platform.md §Limits).
  url: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .required(),
  hash: Joi.string().custom(md5Hash),
  language: text(),
  documentType: text(),
  documentOf: Joi.string().valid('tender', 'item', 'lot'),
  relatedItem: text(),
}).fork(['title'], (s) => s.required());
