import Joi from 'joi';
import { list } from './lists';
import { float } from './float';
import { isoDate } from './validation';
import { address, classificationKeys, contactPoint, identifier, procuringEntityKind, scale, text, translated } from './organization.schema';
import type { BusinessOrganization, Document, Item, Location, ProcuringEntity, SignerInfo, Unit, Value } from './shapes';

/**
 * Shared structures of the spec (Organization, Value, Period, Classification, Item, Document) as request shapes.
 * `model<T>` builds `Joi.object<T, true>`, which holds each schema's members to its type in shapes.ts; the
 * organization parts are organization.schema.ts's pieces with the tender side's rules.
 */
export const model = <T>(name: string, keys: Joi.StrictSchemaMap<T>) => Joi.object<T, true>(keys).label(name);
/** Client-given ids: 32 hexadecimal characters (schematics `MD5Type`). */
export const md5 = () => Joi.string().hex().length(32);

/** Spec-era currency codelist (standards `tender_currency.json` at bf204442, docs/tenders.md §Value and currency). */
export const CURRENCIES = ['UAH', 'USD', 'EUR', 'GBP', 'RUB'] as const;
export const currency = () =>
  Joi.string().custom((value: string, helpers) =>
    (CURRENCIES as readonly string[]).includes(value)
      ? value
      : helpers.message({ custom: `Currency must be only ${CURRENCIES.join(', ')}.` }),
  );

export const valueSchema = model<Value>('Value', {
  amount: float().min(0).required(),
  currency: currency(),
  valueAddedTaxIncluded: Joi.boolean(),
});

/** A contract's value: left unbound, its type (`ContractValue`) lives in contract.types.ts, which core does not import. */
export const contractValueSchema = Joi.object({
  amount: float().min(0),
  amountNet: float().min(0),
  currency: currency(),
  valueAddedTaxIncluded: Joi.boolean(),
}).label('ContractValue');

/**
 * Left unbound, as the classifications below: other schemas extend it (`.keys`) with members a `Joi.object<T, true>`
 * would refuse, and `Required<Period>` members take it.
 */
export const periodSchema = Joi.object({ startDate: isoDate(), endDate: isoDate() }).label('Period');

export const addressSchema = address([]).label('Address');

export const contactPointSchema = contactPoint([], { telephoneOrEmail: true }).label('ContactPoint');

const identifierSchema = identifier(['id']).label('Identifier');

export const signerInfoSchema = model<SignerInfo>('SignerInfo', {
  name: text(),
  email: Joi.string().email({ tlds: false }),
  telephone: text(),
  iban: text(),
  position: text(),
  authorizedBy: text(),
});

/** The reference's `SignerInfo` as its models take it: every member required, the IBAN 15 to 33 characters. */
export const completeSignerInfoSchema = signerInfoSchema
  .keys({ iban: Joi.string().min(15).max(33) })
  .fork(['name', 'email', 'telephone', 'iban', 'position', 'authorizedBy'], (s) => s.required());

const organizationKeys = {
  ...translated('name'),
  identifier: identifierSchema.required(),
  additionalIdentifiers: list('additionalIdentifiers', identifierSchema),
  address: addressSchema.required(),
  contactPoint: contactPointSchema,
  additionalContactPoints: list('additionalContactPoints', contactPointSchema),
};

export const procuringEntitySchema = model<ProcuringEntity & { signerInfo?: SignerInfo }>('ProcuringEntity', {
  ...organizationKeys,
  contactPoint: contactPointSchema.required(),
  kind: procuringEntityKind(),
  signerInfo: signerInfoSchema,
}).fork(['name'], (s) => s.required());

/** A business organization (tenderers, suppliers); `scale` becomes required by date (versioned-rules.ts). */
export const businessOrganizationSchema = model<BusinessOrganization & { signerInfo?: SignerInfo }>('BusinessOrganization', {
  ...organizationKeys,
  scale: scale(),
  signerInfo: signerInfoSchema,
}).fork(['name'], (s) => s.required());

export const classificationSchema = Joi.object({ ...classificationKeys(), uri: text() }).label('Classification');

/** Item classification: scheme ДК021 and a CPV-shaped code. */
export const cpvSchema = Joi.object({
  scheme: Joi.string().valid('ДК021').required(),
  id: Joi.string()
    .pattern(/^\d{8}-\d$/)
    .required()
    .messages({ 'string.pattern.base': 'Value must be one of ДК021 codes' }),
  description: text().required(),
  uri: text(),
}).label('CPVClassification');

export const unitSchema = model<Unit>('Unit', { name: text(), code: text().required(), value: valueSchema });

export const itemKeys: Joi.StrictSchemaMap<Item> = {
  id: text(),
  ...translated('description'),
  classification: cpvSchema.required(),
  additionalClassifications: list('additionalClassifications', classificationSchema),
  unit: unitSchema.required(),
  quantity: float().min(0),
  relatedLot: text(),
  deliveryDate: periodSchema,
  deliveryAddress: addressSchema,
  deliveryLocation: model<Location>('Location', { latitude: Joi.number(), longitude: Joi.number(), elevation: Joi.number() }),
};

export const itemSchema = model<Item>('Item', itemKeys).fork(['description'], (s) => s.required());

/** `md5:<32 hex digits>`, checked in the reference's order (`HashType`): type, length, digits. */
function md5Hash(value: string, helpers: Joi.CustomHelpers) {
  const [type, digits] = value.includes(':') ? value.split(':', 2) : [];
  if (type !== 'md5') return helpers.error('string.hashType');
  if (digits.length !== 32) return helpers.error('string.length');
  return /^[0-9a-f]+$/.test(digits) ? value : helpers.error('string.hex');
}

export const documentHash = () => Joi.string().custom(md5Hash);

/** A document as a request gives it: the server dates it and names its author. */
export const documentSchema = model<Omit<Document, 'author' | 'datePublished' | 'dateModified'>>('Document', {
  id: md5(),
  ...translated('title'),
  ...translated('description'),
  format: text(),
  // Only web addresses: a `javascript:` or `data:` link would run in every portal that shows it (docs/platform.md §Limits).
  url: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .required(),
  hash: documentHash(),
  language: text(),
  documentType: text(),
  documentOf: Joi.string().valid('tender', 'item', 'lot'),
  relatedItem: text(),
}).fork(['title'], (s) => s.required());
