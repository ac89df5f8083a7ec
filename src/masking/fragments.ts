/**
 * The spec's hiding tables are written with two abbreviations, `<addr>` and `<org>`. They are expanded here, once,
 * and every kind's table is built from these expansions, so no table can name an organization and forget one of
 * its fields (docs/masking.md §Shared fragments).
 */

/** A field and its `_en`/`_ru` variants (docs/masking.md §Shared fragments: translations are always hidden). */
const withTranslations = (names: string[]) => names.flatMap((n) => [n, `${n}_en`, `${n}_ru`]);
const under = (prefix: string, fields: string[]) => fields.map((f) => `${prefix}.${f}`);

/** `<addr>`: streetAddress, locality, region, postalCode, countryName (+_en,_ru). */
export const ADDRESS_FIELDS = withTranslations(['streetAddress', 'locality', 'region', 'postalCode', 'countryName']);
/** A contact point as `<org>` lists it: telephone, email, faxNumber, url, name (+_en,_ru). */
export const CONTACT_FIELDS = ['telephone', 'email', 'faxNumber', 'url', ...withTranslations(['name'])];

export const addressPaths = (prefix: string) => under(prefix, ADDRESS_FIELDS);

/** `contactPoint` and every `additionalContactPoints[*]` of an organization, each field of each. */
export const contactPaths = (prefix: string) => [
  ...under(`${prefix}.contactPoint`, CONTACT_FIELDS),
  ...under(`${prefix}.additionalContactPoints[*]`, CONTACT_FIELDS),
];

/** An organization's address and every contact (the part of `<org>` a restricted submission hides). */
export const reachPaths = (prefix: string) => [...addressPaths(`${prefix}.address`), ...contactPaths(prefix)];

/** A complaint's or question's `author`: `<org>` without `scale` (spec: `$..complaints[*]` row). */
export const authorPaths = (prefix: string) => [
  ...under(prefix, withTranslations(['name'])),
  `${prefix}.identifier.id`,
  ...under(`${prefix}.identifier`, withTranslations(['legalName'])),
  ...reachPaths(prefix),
];

/** `<org>`: name (+_en,_ru), identifier.id, identifier.legalName (+_en,_ru), address.<addr>, every contact, scale. */
export const orgPaths = (prefix: string) => [...authorPaths(prefix), `${prefix}.scale`];

/** A contract supplier's `signerInfo` (spec: Contract hiding rules). */
export const signerInfoPaths = (prefix: string) =>
  under(`${prefix}.signerInfo`, ['name', 'email', 'telephone', 'iban', 'position', 'authorizedBy']);

export const documentPaths = (prefix: string, extra: string[] = []) => under(prefix, ['title', 'url', ...extra]);

export const deliveryPaths = (prefix: string) => [
  `${prefix}.deliveryDate.startDate`,
  `${prefix}.deliveryDate.endDate`,
  ...addressPaths(`${prefix}.deliveryAddress`),
];

/** Delivery dates and address, and `deliveryLocation` (contracts' items). */
export const deliveryWithLocationPaths = (prefix: string) => [
  ...deliveryPaths(prefix),
  `${prefix}.deliveryLocation.latitude`,
  `${prefix}.deliveryLocation.longitude`,
];
