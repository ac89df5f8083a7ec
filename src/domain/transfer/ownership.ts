import Joi from 'joi';
import type { Account } from '../../http/auth';
import { ApiError, apiError } from '../../http/errors';
import { tokenMatches } from '../../security/tokens';
import type { StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import type { Actor } from '../core/actor';
import type { ObjectDoc } from '../core/object-doc';
import { type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { isFinal, procedureOfStored } from '../tender';
import { loadTransfer } from './transfer.lifecycle';
import type { OwnedObject, TransferDoc } from './transfer.types';

/** The kinds whose owner a transfer can change, and each one's rules (docs/relocation.md §Changing the owner). */
export interface OwnershipPolicy {
  kind: 'tenders' | 'plans' | 'contracts' | 'agreements';
  /** The singular the refusals name: `tender status`. */
  name: string;
  /** Broker levels that may take the object over. */
  levels: (data: OwnedObject) => string[];
  /** Whether its status lets its owner change. */
  movable: (data: OwnedObject) => boolean;
}

export const OWNERSHIP: Record<OwnershipPolicy['kind'], OwnershipPolicy> = {
  tenders: {
    kind: 'tenders',
    name: 'tender',
    // The procedure's creation levels; a central procuring entity's tender needs level 5, as to create it.
    levels: (data) => (data.procuringEntity?.kind === 'central' ? ['5'] : procedureOfStored(data).accreditation.create),
    // Not once its procedure's phases are over (the reference's final statuses of every type).
    movable: (data) => !isFinal(procedureOfStored(data), data.status),
  },
  plans: { kind: 'plans', name: 'plan', levels: () => ['1', '3', '5'], movable: ({ status }) => status === 'scheduled' },
  contracts: {
    kind: 'contracts',
    name: 'contract',
    levels: () => ['3', '5'],
    movable: ({ status }) => status === 'pending' || status === 'active',
  },
  agreements: { kind: 'agreements', name: 'agreement', levels: () => ['3', '5'], movable: ({ status }) => status === 'active' },
};

/** The body the routes take, for the API description; `ownershipRequest` checks it as the reference does. */
export const ownershipSchema = Joi.object({ id: Joi.string().required(), transfer: Joi.string().required() });

/** `validate_ownership_data`: `id` and `transfer` non-empty, each one missing reported; other members are ignored. */
function ownershipRequest(data: Record<string, unknown>): { id: string; transfer: string } {
  const missing = ['id', 'transfer'].filter((name) => !data[name]);
  if (missing.length) {
    throw new ApiError(
      422,
      missing.map((name) => ({ location: 'body', name, description: 'This field is required.' })),
    );
  }
  return { id: String(data.id), transfer: String(data.transfer) };
}

const refusedAccreditation = (who: 'Broker' | 'Owner') =>
  apiError(403, `${who} Accreditation level does not permit ownership change`, { location: 'url', name: 'accreditation' });

/**
 * The current owner must have left (level `x`) for another broker to take its objects; an owner the key file does
 * not list is taken as gone (`check_user_accreditations(default=True)`).
 */
function ownerHasLeft(accounts: Map<string, Account>, owner: unknown): boolean {
  for (const account of accounts.values()) if (account.name === owner) return account.levels.includes('x');
  return true;
}

/**
 * `POST /{kind}/{id}/ownership` (docs/relocation.md §Changing the owner) by a broker: checks in the reference's order,
 * the taker's and the owner's accreditations before the `body` is read, then one commit gives the object the
 * transfer's owner and token hashes and marks the transfer used for it.
 */
export async function changeOwnership(
  session: StoreSession,
  policy: OwnershipPolicy,
  stored: StoredObject<ObjectDoc<OwnedObject, object, object>>,
  body: () => Record<string, unknown>,
  { account, now }: Actor,
  accounts: Map<string, Account>,
): Promise<Pick<OwnedObject, 'id' | 'owner'>> {
  const data = stored.doc.data;
  if (!policy.levels(data).some((level) => account.levels.includes(level))) throw refusedAccreditation('Broker');
  if (!ownerHasLeft(accounts, data.owner)) throw refusedAccreditation('Owner');
  const request = ownershipRequest(body());
  if (!policy.movable(data)) {
    throw apiError(403, `Can't update credentials in current (${data.status}) ${policy.name} status`);
  }
  if (!tokenMatches(request.transfer, stored.doc.secrets?.transferHash)) {
    throw apiError(403, 'Invalid transfer', { name: 'transfer' });
  }
  const transfer = await loadTransfer(session, request.id);
  const location = `/${policy.kind}/${data.id}`;
  if (transfer.doc.data.usedFor && transfer.doc.data.usedFor !== location) {
    throw apiError(403, 'Transfer already used', { name: 'transfer' });
  }
  const stamp = formatKyiv(now);
  const moved: ObjectDoc<OwnedObject, object, object> = {
    ...stored.doc,
    data: { ...data, owner: transfer.doc.owner, dateModified: stamp },
    secrets: transfer.doc.secrets,
  };
  const used: TransferDoc = { ...transfer.doc, data: { ...transfer.doc.data, date: stamp, usedFor: location } };
  await session.commit([updateOf(stored, moved), updateOf(transfer, used)]);
  return { id: data.id, owner: moved.data.owner };
}
