import { apiError } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { newId } from '../../core/ids';
import { mergePatch, validated } from '../../core/validation';
import type { StoredTender } from '../tender-aggregate';
import { requireEditable, saveTenderChange } from '../tender.lifecycle';
import { lotPatchSchema, lotSchema, type LotRequest } from '../tender.schema';
import type { Criterion, Lot, Tender } from '../tender.types';
import { itemById, itemsOf } from '../../core/items';

/**
 * The lots sub-resource (docs/tenders.md §Lots; beyond the spec's table): a lot is added or changed by saving
 * the whole tender through the PATCH path, so lot defaults, tender value sums and every tender rule apply as if
 * the owner had patched `lots` — the answer is the lot as stored. The request's `data` is read once the tender's
 * status lets lots change: that refusal answers first.
 */
const refusal = (verb: string) => (status: string) => `Can't ${verb} lot in current (${status}) tender status`;

/**
 * Lots never change once the tender has an award (`validate_lot_operation_with_awards`, after the reference's other
 * checks; only where the owner names awards can a tender still editable have one:
 * docs/tenders.md §negotiation and negotiation.quick).
 */
function requireNoAwards(stored: StoredTender, verb: 'add' | 'update' | 'delete'): void {
  if (stored.doc.data.awards?.length) throw apiError(403, `Can't ${verb} lot when you have awards`);
}

const lotsOf = (tender: Tender): Lot[] => itemsOf(tender, 'lots');
export const findLot = (tender: Pick<Tender, 'lots'>, lotId: string): Lot => itemById(tender, 'lots', lotId, 'lot_id');

/** A tender's lot, for a route on it: 404 for an unknown one. */
export interface TenderLot {
  stored: StoredTender;
  lot: Lot;
}

/** `POST /tenders/{id}/lots` by the owner: 201 with the stored lot. */
export async function addLot(session: StoreSession, stored: StoredTender, data: () => Record<string, unknown>, now: Date): Promise<Lot> {
  requireEditable(stored, refusal('add'));
  requireNoAwards(stored, 'add');
  // Its status and date are the server's defaults, set as the tender is saved (tender-defaults.ts).
  const lot = { id: newId(), ...validated<LotRequest>(lotSchema, data()) } as Lot;
  const before = stored.doc.data;
  const doc = await saveTenderChange(session, stored, { ...before, lots: [...lotsOf(before), lot] }, now);
  return findLot(doc.data, lot.id);
}

/** `PATCH /tenders/{id}/lots/{lot_id}` by the owner: 200 with the stored lot. */
export async function patchLot(
  session: StoreSession,
  { stored, lot: found }: TenderLot,
  data: () => Record<string, unknown>,
  now: Date,
): Promise<Lot> {
  requireEditable(stored, refusal('update'));
  requireNoAwards(stored, 'update');
  const before = stored.doc.data;
  const patch = validated<Partial<LotRequest>>(lotPatchSchema, data());
  const lots = lotsOf(before).map((lot) => (lot.id === found.id ? mergePatch(lot, patch) : lot));
  const doc = await saveTenderChange(session, stored, { ...before, lots }, now);
  return findLot(doc.data, found.id);
}

/** Lists of the tender whose members name a lot by `relatedLot`: a lot they name cannot be deleted. */
const RELATED_LISTS = ['cancellations', 'milestones', 'items'] as const;

/**
 * `DELETE /tenders/{id}/lots/{lot_id}` by the owner, in the statuses that let lots change (docs/tenders.md §Lots):
 * refused while a criterion with active requirements, a cancellation, a milestone or an item names the lot;
 * 200 with the deleted lot.
 */
export async function deleteLot(session: StoreSession, { stored, lot }: TenderLot, now: Date): Promise<Lot> {
  requireEditable(stored, refusal('delete'));
  const before = stored.doc.data;
  const lotId = lot.id;
  const criteria = itemsOf(before, 'criteria').filter((c) => c.relatedItem === lotId);
  if (criteria.some((c) => activeRequirements(c))) {
    throw apiError(403, `Can't delete ${lotId} lot while related criterion has active requirements`);
  }
  for (const list of RELATED_LISTS) {
    const members: { relatedLot?: string }[] = before[list] ?? [];
    if (members.some((x) => x.relatedLot === lotId)) throw apiError(422, `Cannot delete lot with related ${list}`);
  }
  requireNoAwards(stored, 'delete');
  const { lots: _lots, ...rest } = before;
  const lots = lotsOf(before).filter((x) => x.id !== lotId);
  await saveTenderChange(session, stored, lots.length ? { ...rest, lots } : rest, now);
  return lot;
}

const activeRequirements = (criterion: Criterion): boolean =>
  itemsOf(criterion, 'requirementGroups').some((group) => itemsOf(group, 'requirements').some((r) => r.status === 'active'));
