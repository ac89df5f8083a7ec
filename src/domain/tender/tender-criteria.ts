import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';
import type { Doc } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { updateOf, type ObjectDoc } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import { criteriaListSchema, withServerFields } from './criteria';
import { validated } from '../core/validation';
import { loadTender } from './tender-aggregate';

/** `POST /tenders/{id}/criteria` by the owner while the tender is a draft: a list in, the created list out (docs/tenders.md §Criteria). */
export async function addCriteria(ctx: Ctx, id: string): Promise<Doc[]> {
  const stored = await loadTender(ctx.state.session, id);
  requireBroker(ctx);
  requireOwner(ctx, stored.doc);
  const { status } = stored.doc.data;
  if (status !== 'draft') throw apiError(403, `Can't add criterion in current (${status}) tender status`);
  const body = ctx.state.body as { data?: unknown } | undefined;
  const list = body && typeof body === 'object' && Array.isArray(body.data) ? body.data : null;
  if (!list) throw apiError(422, 'Data not available');
  const now = ctx.state.now;
  const added = validated<Doc[]>(criteriaListSchema, list).map((c) => withServerFields(c, now));
  const data = { ...stored.doc.data, criteria: [...(stored.doc.data.criteria ?? []), ...added], dateModified: formatKyiv(now) };
  const doc: ObjectDoc = { ...stored.doc, data };
  await ctx.state.session.commit([updateOf(stored, doc)]);
  return added;
}
