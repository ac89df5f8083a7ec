import { seesRestricted, type Viewer } from '../../http/auth';
import { applyMask, type MaskTable } from '../../masking/mask';
import { isRestricted, type ObjectDoc } from './objects';

/**
 * The data a viewer may see of a tender or contract: whole for an unrestricted object, for the platform that owns
 * it, for `r` brokers and system roles; otherwise with the hiding table applied (docs/platform.md §Restricted access).
 */
export function visibleData<D extends { owner?: unknown }>(doc: ObjectDoc<D, object, object>, viewer: Viewer, table: MaskTable): D {
  const whole = !isRestricted(doc) || seesRestricted(viewer) || viewer.account?.name === doc.data.owner;
  return whole ? doc.data : applyMask(doc.data, table);
}
