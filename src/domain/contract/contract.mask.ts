import type { MaskTable } from '../../masking/mask';
import { deliveryWithLocationPaths, documentPaths, orgPaths, signerInfoPaths } from '../../masking/fragments';

const SUPPLIER = '$.suppliers[*]';

/**
 * Contract (`restricted=true`), by the spec's table with `<org>` expanded in full: every contact field of every
 * supplier is hidden, not only those the spec's contract example shows (docs/masking.md §Contract).
 */
export const CONTRACT_MASK: MaskTable = [
  ...deliveryWithLocationPaths('$.items[*]'),
  ...orgPaths(SUPPLIER),
  ...signerInfoPaths(SUPPLIER),
  ...['rationale', 'rationale_ru', 'rationale_en'].map((f) => `$.changes[*].${f}`),
  ...documentPaths('$..documents[*]'),
];
