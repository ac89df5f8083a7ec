import Joi from 'joi';
import { list } from './lists';
import {
  PROCURING_ENTITY_KINDS,
  SCALES,
  type Address,
  type BusinessOrganization,
  type Classification,
  type ContactPoint,
  type Identifier,
  type ProcuringEntity,
  type Translated,
} from './shapes';

/**
 * Shared organization shapes (spec: Shared structures, Organization); which parts are required follows the reference.
 * `Joi.object<T, true>` makes the compiler hold each schema's members to its type in shapes.ts. The pieces
 * (`identifier`, `address`, `contactPoint`, `classificationKeys`) build both the framework side's organizations here
 * and the tender side's in parts.schema.ts: where the two sides' rules differ, an option says so.
 */
export const text = () => Joi.string().min(1);

/** `name`, `name_en` and `name_ru` as non-empty texts, typed so that `Joi.object<T, true>` sees each member. */
export const translated = <Name extends string>(name: Name) =>
  ({ [name]: text(), [`${name}_en`]: text(), [`${name}_ru`]: text() }) as Required<{ [K in keyof Translated<Name>]: Joi.StringSchema }>;

export const identifier = (required: string[]) =>
  Joi.object<Identifier, true>({
    scheme: text(),
    id: text(),
    uri: text(),
    ...translated('legalName'),
  }).fork(required, (s) => s.required());

export const address = (required: string[]) =>
  Joi.object<Address, true>({
    ...translated('streetAddress'),
    ...translated('locality'),
    ...translated('region'),
    ...translated('postalCode'),
    ...translated('countryName'),
  }).fork(required, (s) => s.required());

/** `telephoneOrEmail`: the tender side's contact point needs one of them (its `ContactPoint.validate_telephone`). */
export function contactPoint(required: string[], { telephoneOrEmail = false } = {}): Joi.ObjectSchema<ContactPoint> {
  const schema = Joi.object<ContactPoint, true>({
    ...translated('name'),
    email: Joi.string().email({ tlds: false }),
    telephone: text(),
    faxNumber: text(),
    url: text(),
  }).fork(required, (s) => s.required());
  if (!telephoneOrEmail) return schema;
  return schema.custom((cp: ContactPoint, helpers) =>
    cp.telephone || cp.email ? cp : helpers.message({ custom: 'telephone or email should be present' }),
  );
}

const FULL_ADDRESS = ['countryName', 'streetAddress', 'locality', 'region', 'postalCode'];

export const procuringEntityKind = () => Joi.string().valid(...PROCURING_ENTITY_KINDS);
export const scale = () => Joi.string().valid(...SCALES);

/** An organization with a full address and a contact point with email. */
const fullOrganization = () => ({
  ...translated('name'),
  identifier: identifier(['scheme', 'id', 'legalName']).required(),
  additionalIdentifiers: list('additionalIdentifiers', identifier(['scheme', 'id'])),
  address: address(FULL_ADDRESS).required(),
  contactPoint: contactPoint(['name', 'email']).required(),
  additionalContactPoints: list('additionalContactPoints', contactPoint(['name'])),
});

/** `procuringEntity` of a framework: name, identifier, full address and a contact point with email. */
export const procuringEntitySchema = Joi.object<ProcuringEntity, true>({ ...fullOrganization(), kind: procuringEntityKind() }).fork(
  ['name'],
  (s) => s.required(),
);

/** The same with every member optional, for draft PATCHes merged into the stored value. */
export const procuringEntityPatchSchema = Joi.object<ProcuringEntity, true>({
  ...translated('name'),
  identifier: identifier([]),
  additionalIdentifiers: list('additionalIdentifiers', identifier(['scheme', 'id'])),
  address: address([]),
  contactPoint: contactPoint([]),
  additionalContactPoints: list('additionalContactPoints', contactPoint(['name'])),
  kind: procuringEntityKind(),
});

/** `SubmissionBusinessOrganization`: a tenderer (docs/frameworks.md §Submissions). */
export const tendererSchema = Joi.object<BusinessOrganization, true>({ ...fullOrganization(), scale: scale() }).fork(['name'], (s) =>
  s.required(),
);

/** A question's author: name, identifier{scheme, id}, address with a country, contact point with a name. */
export const authorSchema = Joi.object<BusinessOrganization, true>({
  ...translated('name'),
  identifier: identifier(['scheme', 'id']).required(),
  additionalIdentifiers: list('additionalIdentifiers', identifier(['scheme', 'id'])),
  address: address(['countryName']).required(),
  contactPoint: contactPoint(['name']).required(),
  additionalContactPoints: list('additionalContactPoints', contactPoint(['name'])),
  scale: scale(),
}).fork(['name'], (s) => s.required());

/** A classification's members but `uri`, all required. */
export const classificationKeys = () => ({ scheme: text().required(), id: text().required(), description: text().required() });

/** A framework's classification: no `uri` (a Rogue field here; the tender side takes one, parts.schema.ts). */
export const classificationSchema = Joi.object<Omit<Classification, 'uri'>, true>(classificationKeys());
