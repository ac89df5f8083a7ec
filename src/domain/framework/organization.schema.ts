import Joi from 'joi';
import { list } from '../core/lists';

/** Shared organization shapes (spec: Shared structures, Organization); which parts are required follows the reference. */
const text = () => Joi.string().min(1);

const translated = (name: string) => ({ [name]: text(), [`${name}_en`]: text(), [`${name}_ru`]: text() });

const identifier = (required: string[]) =>
  Joi.object({
    scheme: text(),
    id: text(),
    uri: text(),
    ...translated('legalName'),
  }).fork(required, (s) => s.required());

const address = (required: string[]) =>
  Joi.object({
    ...translated('streetAddress'),
    ...translated('locality'),
    ...translated('region'),
    ...translated('postalCode'),
    ...translated('countryName'),
  }).fork(required, (s) => s.required());

const contactPoint = (required: string[]) =>
  Joi.object({
    ...translated('name'),
    email: Joi.string().email({ tlds: false }),
    telephone: text(),
    faxNumber: text(),
    url: text(),
  }).fork(required, (s) => s.required());

const FULL_ADDRESS = ['countryName', 'streetAddress', 'locality', 'region', 'postalCode'];

const procuringEntityKind = () => Joi.string().valid('authority', 'central', 'defense', 'general', 'other', 'social', 'special');

/** An organization with a full address and a contact point with email, plus the members of its role. */
const fullOrganization = (roleMembers: Record<string, Joi.Schema>) =>
  Joi.object({
    ...translated('name'),
    identifier: identifier(['scheme', 'id', 'legalName']).required(),
    additionalIdentifiers: list('additionalIdentifiers', identifier(['scheme', 'id'])),
    address: address(FULL_ADDRESS).required(),
    contactPoint: contactPoint(['name', 'email']).required(),
    additionalContactPoints: list('additionalContactPoints', contactPoint(['name'])),
    ...roleMembers,
  }).fork(['name'], (s) => s.required());

/** `procuringEntity` of a framework: name, identifier, full address and a contact point with email. */
export const procuringEntitySchema = fullOrganization({ kind: procuringEntityKind() });

/** The same with every member optional, for draft PATCHes merged into the stored value. */
export const procuringEntityPatchSchema = Joi.object({
  ...translated('name'),
  identifier: identifier([]),
  additionalIdentifiers: list('additionalIdentifiers', identifier(['scheme', 'id'])),
  address: address([]),
  contactPoint: contactPoint([]),
  additionalContactPoints: list('additionalContactPoints', contactPoint(['name'])),
  kind: procuringEntityKind(),
});

/** `SubmissionBusinessOrganization`: a tenderer (docs/frameworks.md §Submissions). */
export const tendererSchema = fullOrganization({
  scale: Joi.string().valid('micro', 'sme', 'mid', 'large', 'not specified'),
});

/** A question's author: name, identifier{scheme, id}, address with a country, contact point with a name. */
export const authorSchema = Joi.object({
  ...translated('name'),
  identifier: identifier(['scheme', 'id']).required(),
  additionalIdentifiers: list('additionalIdentifiers', identifier(['scheme', 'id'])),
  address: address(['countryName']).required(),
  contactPoint: contactPoint(['name']).required(),
  additionalContactPoints: list('additionalContactPoints', contactPoint(['name'])),
  scale: Joi.string().valid('micro', 'sme', 'mid', 'large', 'not specified'),
}).fork(['name'], (s) => s.required());

export const classificationSchema = Joi.object({
  scheme: text().required(),
  id: text().required(),
  description: text().required(),
});
