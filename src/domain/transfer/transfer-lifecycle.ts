import Joi from 'joi';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { issueAccess, type Access, type OwnerSecrets } from '../../security/tokens';
import type { Stored } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import { insertOf, loadObject, type ObjectDoc } from '../core/objects';
import { requireBroker } from '../core/owner';
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
export async function createTransfer(ctx: Ctx): Promise<{ doc: TransferDoc; access: Access }> {
  requireBroker(ctx);
  validated(createTransferSchema, bodyData(ctx));
  const { access, secrets } = issueAccess();
  const doc: TransferDoc = {
    data: { id: newId(), date: formatKyiv(ctx.state.now) },
    owner: ctx.state.viewer.account!.name,
    secrets,
  };
  await ctx.state.session.commit([insertOf('transfers', doc)]);
  return { doc, access };
}

/** A transfer by id; 404 `url`/`transfer_id` for an unknown one. */
export async function loadTransfer(ctx: Ctx, id: string): Promise<Stored & { doc: TransferDoc }> {
  return (await loadObject(ctx.state.session, 'transfers', id)) as Stored & { doc: TransferDoc };
}

/** `GET /transfers/{id}`: brokers only (`view_transfer`), the public part. */
export async function readTransfer(ctx: Ctx, id: string): Promise<TransferDoc['data']> {
  requireBroker(ctx);
  return (await loadTransfer(ctx, id)).doc.data;
}
