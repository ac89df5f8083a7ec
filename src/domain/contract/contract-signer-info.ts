import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';
import type { Doc } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import { validated } from '../core/validation';
import { putSignerInfoSchema } from './contract.schema';

/**
 * `PUT /contracts/{id}/buyer/signer_info` by the contract's owner and `PUT /contracts/{id}/suppliers/signer_info`
 * by the winning bid's owner (spec-era econtract `contract_signer_info.py`): who signs for each side, required
 * before the contract is signed, changeable while it is pending (docs/contracts.md §Contracts from awards).
 */
export type ContractDoc = ObjectDoc & { supplierAccess?: ObjectDoc };

export async function putSignerInfo(ctx: Ctx, side: 'buyer' | 'suppliers'): Promise<Doc> {
  const stored = await loadObject(ctx.state.session, 'contracts', ctx.params.id);
  const doc: ContractDoc = stored.doc;
  requireBroker(ctx);
  // The supplier's side is the winning bid's owner's: its owner name and token hash are kept with the contract.
  requireOwner(ctx, side === 'buyer' ? doc : (doc.supplierAccess ?? { data: {} }));
  const signerInfo = validated<Doc>(putSignerInfoSchema, bodyData(ctx));
  const { status } = doc.data;
  if (status !== 'pending') throw apiError(403, `Can't update contract signerInfo in current (${status}) status`);
  const data: Doc = { ...doc.data, dateModified: formatKyiv(ctx.state.now) };
  if (side === 'buyer') data.buyer = { ...data.buyer, signerInfo };
  else data.suppliers = (data.suppliers as Doc[]).map((s, i) => (i === 0 ? { ...s, signerInfo } : s));
  await ctx.state.session.commit([updateOf(stored, { ...doc, data })]);
  return signerInfo;
}
