import type { CheckRunner } from '../core/check-runner';
import { applyDueEvents } from '../core/events';
import { formatKyiv } from '../../time/kyiv';
import { tenderEventsOf } from './tender.events';
import { procedureOfStored } from './tender.lifecycle';
import { tenderChange, tenderOf, type StoredTender } from './tender-aggregate';
import { STATE_MACHINE_WRITES } from './tender-status';

/**
 * The tender's automatic transitions (docs/tenders.md §Tender events and next_check): applies every event whose
 * time has come, in order (one run may pass several) to the tender with its bids, then sets the next `next_check`
 * and seals the bids while they are private (docs/tenders.md §Bids). Nothing due → no change.
 */
export const tenderCheck: CheckRunner = async (_session, stored, now) => {
  const { doc } = stored as StoredTender;
  const procedure = procedureOfStored(doc.data);
  const config = doc.config ?? {};
  const tender = structuredClone(tenderOf(doc));
  if (applyDueEvents(tender, tenderEventsOf(procedure), now, config) === 0) return [];
  const data = { ...tender, dateModified: formatKyiv(now) };
  return [tenderChange(stored as StoredTender, data, { writes: STATE_MACHINE_WRITES })];
};
