import { apiError } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import type { SignerInfo } from '../core/shapes';
import { type ObjectDoc, type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { validated } from '../core/validation';
import { completeSignerInfoSchema } from '../core/parts.schema';
import type { Contract, ContractDoc } from './contract.types';

/** The owner of a side: the contract's for the buyer; the winning bid's owner name and token hash, kept with the contract. */
export function sideOwner(doc: ContractDoc, side: 'buyer' | 'suppliers'): ObjectDoc {
  return side === 'buyer' ? doc : (doc.supplierAccess ?? { data: {} });
}

/**
 * `PUT /contracts/{id}/buyer/signer_info` by the contract's owner and `PUT /contracts/{id}/suppliers/signer_info`
 * by the winning bid's owner (spec-era econtract `contract_signer_info.py`): who signs for each side, required
 * before the contract is signed, changeable while it is pending (docs/contracts.md §Contracts from awards).
 */
export async function putSignerInfo(
  session: StoreSession,
  stored: StoredObject<ContractDoc>,
  side: 'buyer' | 'suppliers',
  body: unknown,
  now: Date,
): Promise<SignerInfo> {
  const doc = stored.doc;
  const signerInfo = validated<SignerInfo>(completeSignerInfoSchema, body);
  const { status } = doc.data;
  if (status !== 'pending') throw apiError(403, `Can't update contract signerInfo in current (${status}) status`);
  const data: Contract = { ...doc.data, dateModified: formatKyiv(now) };
  // A contract of an award always has its buyer (tender/contracts/add-contracts.ts); the reference sets it all the same.
  if (side === 'buyer') data.buyer = { ...(data.buyer as NonNullable<Contract['buyer']>), signerInfo };
  else data.suppliers = data.suppliers.map((s, i) => (i === 0 ? { ...s, signerInfo } : s));
  await session.commit([updateOf(stored, { ...doc, data })]);
  return signerInfo;
}
