/**
 * The spec's shared structures (spec: Shared structures) as stored objects hold them, for every kind to use. The
 * joi schemas decide what a request may carry and are checked against these types where they are built
 * (`Joi.object<Identifier, true>` in organization.schema.ts fails to compile when the two differ in a member).
 */

/** A text and its English and Russian versions: `title`, `title_en`, `title_ru`. */
export type Translated<Name extends string> = { [K in Name | `${Name}_en` | `${Name}_ru`]?: string };

/** ISO date-times with the Kyiv offset, as the server writes them (docs/platform.md §Time and dates); `Required<Period>` once both are set. */
export interface Period {
  startDate?: string;
  endDate?: string;
}

export type Identifier = Translated<'legalName'> & {
  scheme?: string;
  id?: string;
  uri?: string;
};

export type Address = Translated<'streetAddress'> &
  Translated<'locality'> &
  Translated<'region'> &
  Translated<'postalCode'> &
  Translated<'countryName'>;

export type ContactPoint = Translated<'name'> & {
  email?: string;
  telephone?: string;
  faxNumber?: string;
  url?: string;
};

export type Organization = Translated<'name'> & {
  name: string;
  identifier: Identifier;
  additionalIdentifiers?: Identifier[];
  address: Address;
  contactPoint?: ContactPoint;
  additionalContactPoints?: ContactPoint[];
};

export const PROCURING_ENTITY_KINDS = ['authority', 'central', 'defense', 'general', 'other', 'social', 'special'] as const;
export type ProcuringEntityKind = (typeof PROCURING_ENTITY_KINDS)[number];

export const SCALES = ['micro', 'sme', 'mid', 'large', 'not specified'] as const;
export type Scale = (typeof SCALES)[number];

export type ProcuringEntity = Organization & { kind?: ProcuringEntityKind };

/** A tenderer or supplier. */
export type BusinessOrganization = Organization & { scale?: Scale };

export interface Classification {
  scheme: string;
  id: string;
  description: string;
  uri?: string;
}

/** A document as stored: the request's members and the server's dates (docs/platform.md §Documents and uploads). */
export type Document = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    title: string;
    url: string;
    format?: string;
    hash?: string;
    language?: string;
    documentType?: string;
    documentOf?: string;
    relatedItem?: string;
    author?: string;
    datePublished: string;
    dateModified: string;
  };

/** Who signs a contract for a party (the econtract `SignerInfo`, docs/contracts.md §Contracts from awards). */
export interface SignerInfo {
  name?: string;
  email?: string;
  telephone?: string;
  iban?: string;
  position?: string;
  authorizedBy?: string;
}
