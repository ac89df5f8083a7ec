import { isDeepStrictEqual } from 'node:util';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';
import type { Doc } from '../../store/port';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { newId } from '../core/ids';
import { loadObject, updateOf } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import { mergePatch, validated } from '../core/validation';
import { CONTRACT_CHANGE_RATIONALE_TYPES, patchChangeSchema, postChangeSchema } from './contract.schema';
import { itemById, itemsOf } from '../core/items';

/**
 * Contract changes (beyond the spec; the reference's contracting tutorial): the owner of an active contract
 * proposes one change at a time (`pending`), edits it, and applies it (`active`, with `dateSigned`), after which it
 * is history. Texts from `contracting/core/procedure/{validation,state/change}.py`.
 */
const changesOf = (contract: Doc): Doc[] => itemsOf(contract, 'changes');
export const findChange = (contract: Doc, changeId: string) => itemById(contract, 'changes', changeId, 'change_id');

async function ownedActiveContract(ctx: Ctx, verb: 'add' | 'update') {
  const stored = await loadObject(ctx.state.session, 'contracts', ctx.params.id);
  requireBroker(ctx);
  requireOwner(ctx, stored.doc);
  const { status } = stored.doc.data;
  if (status !== 'active') throw apiError(403, `Can't ${verb} contract change in current (${status}) contract status`);
  return stored;
}

function requireKnownRationaleTypes(contract: Doc, change: Doc): void {
  const allowed: string[] = contract.contractChangeRationaleTypes
    ? Object.keys(contract.contractChangeRationaleTypes)
    : CONTRACT_CHANGE_RATIONALE_TYPES;
  if ((change.rationaleTypes ?? []).some((type: string) => !allowed.includes(type))) {
    throw apiError(422, [`Value must be one of (${allowed.map((type) => `'${type}'`).join(', ')}).`], { name: 'rationaleTypes' });
  }
}

/** A change is signed no earlier than the change before it, or the contract itself when it is the first. */
function requireDateSignedInOrder(contract: Doc, change: Doc, earlier: Doc[]): void {
  if (!change.dateSigned) return;
  const last = earlier[earlier.length - 1];
  const [what, signed] = last ? ['last active change', last.dateSigned ?? last.date] : ['contract', contract.dateSigned];
  if (signed && parseIsoDate(change.dateSigned)!.getTime() < parseIsoDate(signed)!.getTime()) {
    throw apiError(403, `Change dateSigned (${change.dateSigned}) can't be earlier than ${what} dateSigned (${signed})`);
  }
}

/** `POST /contracts/{id}/changes`: 201 with the pending change. */
export async function addChange(ctx: Ctx): Promise<Doc> {
  const stored = await ownedActiveContract(ctx, 'add');
  const contract = stored.doc.data;
  const input = validated<Doc>(postChangeSchema, bodyData(ctx));
  if (changesOf(contract).at(-1)?.status === 'pending')
    throw apiError(403, "Can't create new contract change while any (pending) change exists");
  requireKnownRationaleTypes(contract, input);
  requireDateSignedInOrder(contract, input, changesOf(contract));
  const stamp = formatKyiv(ctx.state.now);
  const change = { ...input, id: newId(), status: 'pending', date: stamp };
  const data = { ...contract, changes: [...changesOf(contract), change], dateModified: stamp };
  await ctx.state.session.commit([updateOf(stored, { ...stored.doc, data }, ['changes'])]);
  return change;
}

/** `PATCH /contracts/{id}/changes/{change_id}`: edits a pending change, or applies it with its `dateSigned`. */
export async function patchChange(ctx: Ctx): Promise<Doc> {
  const stored = await ownedActiveContract(ctx, 'update');
  const contract = stored.doc.data;
  const before = findChange(contract, ctx.params.changeId);
  const patch = validated<Doc>(patchChangeSchema, bodyData(ctx));
  if (before.status === 'active') throw apiError(403, `Can't update contract change in current (${before.status}) status`);
  const stamp = formatKyiv(ctx.state.now);
  const after = mergePatch(before, patch);
  if (isDeepStrictEqual(after, before)) return before;
  if (after.status !== before.status) {
    if (!patch.dateSigned) throw apiError(403, "Can't update contract change status. 'dateSigned' is required.");
    after.date = stamp;
  }
  requireKnownRationaleTypes(contract, after);
  requireDateSignedInOrder(
    contract,
    after,
    changesOf(contract).filter((c) => c.id !== before.id),
  );
  const changes = changesOf(contract).map((c) => (c.id === before.id ? after : c));
  await ctx.state.session.commit([updateOf(stored, { ...stored.doc, data: { ...contract, changes, dateModified: stamp } }, ['changes'])]);
  return after;
}
