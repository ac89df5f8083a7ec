import { isBroker, seesRestricted, type Viewer } from '../../http/auth';
import { applyMask, type MaskTable } from '../../masking/mask';
import { isRestricted, type ObjectDoc } from './objects';

/**
 * The one access decision for restricted objects (docs/platform.md §Restricted access; spec: Access rules by
 * object): an unrestricted object is seen whole by all, a restricted one by system roles, `r` brokers and the brokers
 * the object's access rule names (`readers`: a tender's or contract's owner, the parties of a framework's derivative).
 */
export function seesWhole(doc: ObjectDoc<object, object, object>, viewer: Viewer, readers: readonly unknown[]): boolean {
  if (!isRestricted(doc) || seesRestricted(viewer)) return true;
  const name = viewer.account?.name;
  return name !== undefined && isBroker(viewer) && readers.includes(name);
}

/** The data a viewer may see of a tender or contract: whole as `seesWhole` says, for its owner; otherwise masked. */
export function visibleData<D extends { owner?: unknown }>(doc: ObjectDoc<D, object, object>, viewer: Viewer, table: MaskTable): D {
  return seesWhole(doc, viewer, [doc.data.owner]) ? doc.data : applyMask(doc.data, table);
}
