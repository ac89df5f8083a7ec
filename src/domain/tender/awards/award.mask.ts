import { documentPaths, orgPaths } from '../../../masking/fragments';
import type { MaskTable } from '../../../masking/mask';

/** Spec: Hiding rules, Tender, the awards' rows: suppliers as organizations, documents' title and url. */
export const AWARD_MASK: MaskTable = [...orgPaths('$.awards[*].suppliers[*]'), ...documentPaths('$.awards[*].documents[*]')];
