import type { CheckRunner } from '../core/check-runner';
import { applyDueEvents } from '../core/events';
import { formatKyiv } from '../../time/kyiv';
import { cancelledContracts } from './awards/award.lifecycle';
import { procedureOfStored } from './tender.lifecycle';
import { tenderChange, tenderOf, type StoredTender } from './tender-aggregate';
import { tenderEventsOf } from './tender.events';
import { STATE_MACHINE_WRITES } from './tender-status';
import type { Tender } from './tender.types';

const openContracts = (tender: Tender) => new Set((tender.contracts ?? []).filter((c) => c.status !== 'cancelled').map((c) => c.id));

/**
 * The tender's automatic transitions (docs/tenders.md §Tender events and next_check): applies every event whose
 * time has come, in order (one run may pass several) to the tender with its bids, then sets the next `next_check`
 * and seals the bids while they are private (docs/tenders.md §Bids). Nothing due → no change. A cancellation that
 * takes effect at its complaint period's end cancels the contracting module's copies of the contracts it cancelled
 * in the same commit (docs/tenders.md §Cancellations).
 */
export const tenderCheck: CheckRunner = async (session, stored, now) => {
  const { doc } = stored as StoredTender;
  const procedure = procedureOfStored(doc.data);
  const config = doc.config ?? {};
  const tender = structuredClone(tenderOf(doc));
  const open = openContracts(tender);
  if (applyDueEvents(tender, tenderEventsOf(procedure), now, config) === 0) return [];
  const cancelled = [...open].filter((id) => !openContracts(tender).has(id));
  const data = { ...tender, dateModified: formatKyiv(now) };
  return [
    tenderChange(stored as StoredTender, data, { writes: STATE_MACHINE_WRITES }),
    ...(await cancelledContracts(session, cancelled, now)),
  ];
};
