import type { MaskTable } from '../../masking/mask';
import { addressPaths, deliveryPaths, documentPaths } from '../../masking/fragments';

const SUPPLIER = '$.suppliers[*]';

/**
 * Spec: Hiding rules, Contract, as the spec's contract example shows them (spec-era mapping, docs/contracts.md §Restricted contracts):
 * supplier contact telephone, url and name are hidden, its email and fax stay visible.
 */
export const CONTRACT_MASK: MaskTable = [
  ...deliveryPaths('$.items[*]'),
  '$.items[*].deliveryLocation.latitude',
  '$.items[*].deliveryLocation.longitude',
  ...['name', 'name_en', 'name_ru'].map((f) => `${SUPPLIER}.${f}`),
  `${SUPPLIER}.identifier.id`,
  ...['legalName', 'legalName_en', 'legalName_ru'].map((f) => `${SUPPLIER}.identifier.${f}`),
  ...addressPaths(`${SUPPLIER}.address`),
  ...['telephone', 'url', 'name'].map((f) => `${SUPPLIER}.contactPoint.${f}`),
  `${SUPPLIER}.scale`,
  ...['name', 'email', 'telephone', 'iban', 'position', 'authorizedBy'].map((f) => `${SUPPLIER}.signerInfo.${f}`),
  ...['rationale', 'rationale_ru', 'rationale_en'].map((f) => `$.changes[*].${f}`),
  ...documentPaths('$..documents[*]'),
];
