import { deliveryPaths, documentPaths, orgPaths } from '../../../masking/fragments';
import type { MaskTable } from '../../../masking/mask';

/** Spec: Hiding rules, Tender, the contracts' rows: items' delivery, suppliers as organizations, documents. */
export const TENDER_CONTRACT_MASK: MaskTable = [
  ...deliveryPaths('$.contracts[*].items[*]'),
  '$.contracts[*].items[*].deliveryLocation.latitude',
  '$.contracts[*].items[*].deliveryLocation.longitude',
  ...orgPaths('$.contracts[*].suppliers[*]'),
  ...documentPaths('$.contracts[*].documents[*]'),
];
