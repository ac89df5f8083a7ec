import type { Doc } from '../../core/object-doc';
import { apiError } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { type ObjectDoc } from '../../core/objects';
import { updateOf } from '../../save-rules';
import { criteriaListSchema, withServerFields } from './criteria.schema';
import { validated } from '../../core/validation';
import type { StoredTender } from '../tender-aggregate';

/**
 * `POST /tenders/{id}/criteria` by the owner while the tender is a draft: a list in, the created list out
 * (docs/tenders.md §Criteria). The request's `data`, a list, is read once the status lets criteria in: that refusal
 * answers first.
 */
export async function addCriteria(session: StoreSession, stored: StoredTender, list: () => unknown[], now: Date): Promise<Doc[]> {
  const { status } = stored.doc.data;
  if (status !== 'draft') throw apiError(403, `Can't add criterion in current (${status}) tender status`);
  const added = validated<Doc[]>(criteriaListSchema, list()).map((c) => withServerFields(c, now));
  const data = { ...stored.doc.data, criteria: [...(stored.doc.data.criteria ?? []), ...added], dateModified: formatKyiv(now) };
  const doc: ObjectDoc = { ...stored.doc, data };
  await session.commit([updateOf(stored, doc)]);
  return added;
}
