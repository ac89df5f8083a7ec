import { deliveryWithLocationPaths, documentPaths, orgPaths } from '../../../masking/fragments';
import type { MaskTable } from '../../../masking/mask';

/** Spec: Hiding rules, Tender, the contracts' rows: items' delivery, suppliers as organizations, documents. */
export const TENDER_CONTRACT_MASK: MaskTable = [
  ...deliveryWithLocationPaths('$.contracts[*].items[*]'),
  ...orgPaths('$.contracts[*].suppliers[*]'),
  ...documentPaths('$.contracts[*].documents[*]'),
];
