import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { mergePatch, validated } from '../core/validation';
import { CONTRACT_CHANGE_RATIONALE_TYPES, patchChangeSchema, postChangeSchema, type ChangeRequest } from './contract.schema';
import type { Contract, ContractChange, ContractDoc } from './contract.types';
import { itemById, itemsOf } from '../core/items';

/**
 * Contract changes (beyond the spec; the reference's contracting tutorial): the owner of an active contract
 * proposes one change at a time (`pending`), edits it, and applies it (`active`, with `dateSigned`), after which it
 * is history. Texts from `contracting/core/procedure/{validation,state/change}.py`.
 */
const changesOf = (contract: Contract) => itemsOf(contract, 'changes');
export const findChange = (contract: Contract, changeId: string) => itemById(contract, 'changes', changeId, 'change_id');

/** Changes are made to an active contract only. */
function requireActive(contract: Contract, verb: 'add' | 'update'): void {
  const { status } = contract;
  if (status !== 'active') throw apiError(403, `Can't ${verb} contract change in current (${status}) contract status`);
}

function requireKnownRationaleTypes(contract: Contract, change: Pick<ContractChange, 'rationaleTypes'>): void {
  const allowed = contract.contractChangeRationaleTypes
    ? Object.keys(contract.contractChangeRationaleTypes)
    : CONTRACT_CHANGE_RATIONALE_TYPES;
  if ((change.rationaleTypes ?? []).some((type) => !allowed.includes(type))) {
    throw apiError(422, [`Value must be one of (${allowed.map((type) => `'${type}'`).join(', ')}).`], { name: 'rationaleTypes' });
  }
}

/** A change is signed no earlier than the change before it, or the contract itself when it is the first. */
function requireDateSignedInOrder(contract: Contract, change: Pick<ContractChange, 'dateSigned'>, earlier: ContractChange[]): void {
  if (!change.dateSigned) return;
  const last = earlier[earlier.length - 1];
  const [what, signed] = last ? ['last active change', last.dateSigned ?? last.date] : ['contract', contract.dateSigned];
  if (signed && parseIsoDate(change.dateSigned)!.getTime() < parseIsoDate(signed)!.getTime()) {
    throw apiError(403, `Change dateSigned (${change.dateSigned}) can't be earlier than ${what} dateSigned (${signed})`);
  }
}

/** `POST /contracts/{id}/changes` by the contract's owner: 201 with the pending change. */
export async function addChange(
  session: StoreSession,
  stored: StoredObject<ContractDoc>,
  body: unknown,
  now: Date,
): Promise<ContractChange> {
  const contract = stored.doc.data;
  const input = validated<ChangeRequest>(postChangeSchema, body);
  requireActive(contract, 'add');
  if (changesOf(contract).at(-1)?.status === 'pending')
    throw apiError(403, "Can't create new contract change while any (pending) change exists");
  requireKnownRationaleTypes(contract, input);
  requireDateSignedInOrder(contract, input, changesOf(contract));
  const stamp = formatKyiv(now);
  const change: ContractChange = { ...input, id: newId(), status: 'pending', date: stamp };
  const data = { ...contract, changes: [...changesOf(contract), change], dateModified: stamp };
  await session.commit([updateOf(stored, { ...stored.doc, data }, ['changes'])]);
  return change;
}

/** A contract's change, for a route on it: 404 for an unknown one. */
export interface LoadedChange {
  stored: StoredObject<ContractDoc>;
  change: ContractChange;
}

/** `PATCH /contracts/{id}/changes/{change_id}` by the contract's owner: edits a pending change, or applies it with its `dateSigned`. */
export async function patchChange(
  session: StoreSession,
  { stored, change: before }: LoadedChange,
  body: unknown,
  now: Date,
): Promise<ContractChange> {
  const contract = stored.doc.data;
  const patch = validated<Partial<ContractChange>>(patchChangeSchema, body);
  requireActive(contract, 'update');
  if (before.status === 'active') throw apiError(403, `Can't update contract change in current (${before.status}) status`);
  const stamp = formatKyiv(now);
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
  await session.commit([updateOf(stored, { ...stored.doc, data: { ...contract, changes, dateModified: stamp } }, ['changes'])]);
  return after;
}
