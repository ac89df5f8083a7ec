/** Shared pieces of the spec's hiding tables (`<addr>`, `<org>`, documents), expanded under a prefix. */

const withTranslations = (names: string[]) => names.flatMap((n) => [n, `${n}_en`, `${n}_ru`]);

export const ADDRESS_FIELDS = withTranslations(['streetAddress', 'locality', 'region', 'postalCode', 'countryName']);
const CONTACT_FIELDS = ['telephone', 'email', 'faxNumber', 'url', ...withTranslations(['name'])];

export const addressPaths = (prefix: string) => ADDRESS_FIELDS.map((f) => `${prefix}.${f}`);

/** `<org>` of the spec. */
export const orgPaths = (prefix: string) => [
  ...withTranslations(['name']).map((f) => `${prefix}.${f}`),
  `${prefix}.identifier.id`,
  ...withTranslations(['legalName']).map((f) => `${prefix}.identifier.${f}`),
  ...addressPaths(`${prefix}.address`),
  ...CONTACT_FIELDS.map((f) => `${prefix}.contactPoint.${f}`),
  ...CONTACT_FIELDS.map((f) => `${prefix}.additionalContactPoints[*].${f}`),
  `${prefix}.scale`,
];

export const documentPaths = (prefix: string, extra: string[] = []) =>
  ['title', 'url', ...extra].map((f) => `${prefix}.${f}`);

export const deliveryPaths = (prefix: string) => [
  `${prefix}.deliveryDate.startDate`,
  `${prefix}.deliveryDate.endDate`,
  ...addressPaths(`${prefix}.deliveryAddress`),
];
