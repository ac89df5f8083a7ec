import type { Doc } from '../core/object-doc';
import Joi from 'joi';
import { issueAccess, type Access, type OwnerSecrets } from '../../security/tokens';
import type { Stored, StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import type { Actor } from '../core/actor';
import { newId } from '../core/ids';
import { insertOf, loadObject, type ObjectDoc } from '../core/objects';
import { validated } from '../core/validation';

/**
 * A transfer as stored (docs/relocation.md §Transfers): `data` is what every broker may read (`id`, `date`,
 * `usedFor` once used); `owner` is the broker that created it, `secrets` the hashes of the owner token and transfer
 * token it hands to the object it is used for.
 */
export interface TransferDoc extends ObjectDoc {
  owner: string;
  secrets: OwnerSecrets;
}

/** `PostTransfer`: the body's `data` carries nothing the server takes (an `id` is ignored, as the reference's). */
export const createTransferSchema = Joi.object({ id: Joi.any().strip() });

/** `POST /transfers` (docs/relocation.md §Transfers): any broker; answers the transfer and its two tokens. */
export async function createTransfer(
  session: StoreSession,
  data: Doc,
  { account, now }: Actor,
): Promise<{ doc: TransferDoc; access: Access }> {
  validated(createTransferSchema, data);
  const { access, secrets } = issueAccess();
  const doc: TransferDoc = { data: { id: newId(), date: formatKyiv(now) }, owner: account.name, secrets };
  await session.commit([insertOf('transfers', doc)]);
  return { doc, access };
}

/** A transfer by id; 404 `url`/`transfer_id` for an unknown one. */
export async function loadTransfer(session: StoreSession, id: string): Promise<Stored & { doc: TransferDoc }> {
  return (await loadObject(session, 'transfers', id)) as Stored & { doc: TransferDoc };
}
