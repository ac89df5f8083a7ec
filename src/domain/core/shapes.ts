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

/**
 * An amount of money (`valueSchema` in parts.schema.ts). A stored tender's values carry the currency and VAT flag
 * the server defaults (docs/tenders.md §Server-set values).
 */
export interface Value {
  amount: number;
  currency?: string;
  valueAddedTaxIncluded?: boolean;
}

/** An item's unit of measure, and its price where one is given. */
export interface Unit {
  name?: string;
  code: string;
  value?: Value;
}

export interface Location {
  latitude?: number;
  longitude?: number;
  elevation?: number;
}

/** A good, service or work being bought (`itemKeys`); the server gives it an id where the client gives none. */
export type Item = Translated<'description'> & {
  id: string;
  description: string;
  classification: Classification;
  additionalClassifications?: Classification[];
  unit?: Unit;
  quantity?: number;
  relatedLot?: string;
  deliveryDate?: Period;
  deliveryAddress?: Address;
  deliveryLocation?: Location;
};

/** What a contract's item says the winner offered: a requirement of an item's criterion and the answer (docs/tenders.md §Contracts of a tender). */
export interface ItemAttribute {
  name: string;
  unit?: Unit;
  value?: unknown;
  values?: unknown[];
}

/** An item of a contract made from an award: the tender's item as the winning bid priced and answered it. */
export type ContractedItem = Item & { attributes?: ItemAttribute[] };

export interface Duration {
  days: number;
  type: 'working' | 'banking' | 'calendar';
}

/** A payment milestone of a tender, copied `scheduled` into the contracts its awards make (docs/tenders.md §Milestones). */
export interface Milestone {
  id: string;
  title: string;
  description?: string;
  type: 'financing' | 'delivery';
  code: 'prepayment' | 'postpayment' | 'standard';
  percentage: number;
  duration: Duration;
  sequenceNumber: number;
  relatedLot?: string;
  status?: string;
}

/** A guarantee a tender or lot asks of bidders. */
export interface Guarantee {
  amount: number;
  currency?: string;
}

/**
 * A version of a document as stored (docs/platform.md §Document versions), with the fields some holders add
 * (docs/platform.md §Document fields).
 */
export type DocumentVersion = Document & {
  confidentiality?: 'public' | 'buyerOnly';
  confidentialityRationale?: string;
};

/**
 * A version as a holder hands one over: the documents code counts on none of its members (a reader's view of a
 * `buyerOnly` one has no `url`, and kinds not typed yet hand over untyped ones).
 */
export type HeldVersion = Partial<DocumentVersion>;
