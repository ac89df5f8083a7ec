import Joi from 'joi';
import { issueAccess, type Access } from '../../security/tokens';
import type { StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import type { Actor } from '../core/actor';
import { newId } from '../core/ids';
import { loadObject, type StoredObject } from '../core/objects';
import { insertOf } from '../save-rules';
import { validated } from '../core/validation';
import type { TransferDoc } from './transfer.types';

/** `PostTransfer`: the body's `data` carries nothing the server takes (an `id` is ignored, as the reference's). */
export const createTransferSchema = Joi.object({ id: Joi.any().strip() });

/** `POST /transfers` (docs/relocation.md §Transfers): any broker; answers the transfer and its two tokens. */
export async function createTransfer(
  session: StoreSession,
  data: unknown,
  { account, now }: Actor,
): Promise<{ doc: TransferDoc; access: Access }> {
  validated(createTransferSchema, data);
  const { access, secrets } = issueAccess();
  const doc: TransferDoc = { data: { id: newId(), date: formatKyiv(now) }, owner: account.name, secrets };
  await session.commit([insertOf('transfers', doc)]);
  return { doc, access };
}

/** A transfer by id; 404 `url`/`transfer_id` for an unknown one. */
export async function loadTransfer(session: StoreSession, id: string): Promise<StoredObject<TransferDoc>> {
  return loadObject<TransferDoc>(session, 'transfers', id);
}
