import { apiError } from '../../http/errors';
import { issueAccess, tokenMatches, type Access } from '../../security/tokens';
import type { Account } from '../../http/auth';
import type { StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import type { ContractDoc } from './contract.types';

/** A contract keeps the hash of the tender's token it was made with once it has credentials of its own (`tenderTokenHash`). */
const tenderTokenHashOf = (doc: ContractDoc) => doc.tenderTokenHash ?? doc.secrets?.tokenHash;

/** Whether `account`, presenting `token`, is the tender's owner with the tender's token the contract was made with. */
export function holdsTenderCredentials(doc: ContractDoc, account: Account, token: string | null): boolean {
  return account.name === doc.data.owner && tokenMatches(token, tenderTokenHashOf(doc));
}

/**
 * `PATCH /contracts/{id}/credentials` (docs/relocation.md §Contract credentials): the tender's owner, with the
 * tender's token the contract was made with (`holdsTenderCredentials`), gets a fresh owner token and transfer token
 * for the contract while it is `pending` or `active`; the answer is the contract with `access`.
 */
export async function generateCredentials(
  session: StoreSession,
  stored: StoredObject<ContractDoc>,
  now: Date,
): Promise<{ doc: ContractDoc; access: Access }> {
  const doc = stored.doc;
  const { status } = doc.data;
  if (status !== 'pending' && status !== 'active') {
    throw apiError(403, `Can't generate credentials in current (${status}) contract status`);
  }
  const { access, secrets } = issueAccess();
  const credentialed: ContractDoc = {
    ...doc,
    data: { ...doc.data, dateModified: formatKyiv(now) },
    secrets,
    tenderTokenHash: tenderTokenHashOf(doc),
  };
  await session.commit([updateOf(stored, credentialed)]);
  return { doc: credentialed, access };
}
