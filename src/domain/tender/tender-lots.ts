import type { Ctx } from '../../http/context';
import { bodyData } from '../../http/body';
import type { Doc } from '../../store/port';
import { newId } from '../core/ids';
import type { ObjectDoc } from '../core/objects';
import { mergePatch, validated } from '../core/validation';
import { ownedEditableTender, saveTenderChange } from './tender-lifecycle';
import { lotPatchSchema, lotSchema } from './tender.schema';
import { itemById, itemsOf } from '../core/items';

/**
 * The lots sub-resource (docs/tenders.md §Lots; beyond the spec's table): a lot is added or changed by saving
 * the whole tender through the PATCH path, so lot defaults, tender value sums and every tender rule apply as if
 * the owner had patched `lots` — the answer is the lot as stored.
 */
const refusal = (verb: string) => (status: string) => `Can't ${verb} lot in current (${status}) tender status`;

const lotsOf = (tender: Doc): Doc[] => itemsOf(tender, 'lots');
export const findLot = (tender: Doc, lotId: string) => itemById(tender, 'lots', lotId, 'lot_id');

/** `POST /tenders/{id}/lots` by the owner: 201 with the stored lot. */
export async function addLot(ctx: Ctx, tenderId: string): Promise<Doc> {
  const stored = await ownedEditableTender(ctx, tenderId, refusal('add'));
  const lot = { id: newId(), ...validated<Doc>(lotSchema, bodyData(ctx)) };
  const before = stored.doc.data;
  const doc = await saveTenderChange(ctx, stored, { ...before, lots: [...lotsOf(before), lot] });
  return findLot(doc.data, lot.id as string);
}

/** `PATCH /tenders/{id}/lots/{lot_id}` by the owner: 200 with the stored lot. */
export async function patchLot(ctx: Ctx, tenderId: string, lotId: string): Promise<Doc> {
  const stored = await ownedEditableTender(ctx, tenderId, refusal('update'));
  const before = stored.doc.data;
  findLot(before, lotId);
  const patch = validated<Doc>(lotPatchSchema, bodyData(ctx));
  const lots = lotsOf(before).map((lot) => (lot.id === lotId ? mergePatch(lot, patch) : lot));
  const doc: ObjectDoc = await saveTenderChange(ctx, stored, { ...before, lots });
  return findLot(doc.data, lotId);
}
