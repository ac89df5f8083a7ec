import type { Ctx } from '../../http/context';
import { apiError, forbidden } from '../../http/errors';
import { issueAccess, tokenMatches, type Access } from '../../security/tokens';
import { formatKyiv } from '../../time/kyiv';
import { loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { presentedToken, requireBroker } from '../core/owner';

/** A contract keeps the hash of the tender's token it was made with once it has credentials of its own. */
type CredentialedContract = ObjectDoc & { tenderTokenHash?: string };

/**
 * `PATCH /contracts/{id}/credentials` (docs/relocation.md §Contract credentials): the tender's owner, with the
 * tender's token the contract was made with, gets a fresh owner token and transfer token for the contract while it
 * is `pending` or `active`; the answer is the contract with `access`.
 */
export async function generateCredentials(ctx: Ctx): Promise<{ doc: ObjectDoc; access: Access }> {
  const stored = await loadObject(ctx.state.session, 'contracts', ctx.params.id);
  const doc: CredentialedContract = stored.doc;
  requireBroker(ctx);
  const tenderTokenHash = doc.tenderTokenHash ?? doc.secrets?.tokenHash;
  if (ctx.state.viewer.account!.name !== doc.data.owner || !tokenMatches(presentedToken(ctx), tenderTokenHash)) throw forbidden();
  const { status } = doc.data;
  if (status !== 'pending' && status !== 'active') {
    throw apiError(403, `Can't generate credentials in current (${status}) contract status`);
  }
  const { access, secrets } = issueAccess();
  const credentialed: CredentialedContract = {
    ...doc,
    data: { ...doc.data, dateModified: formatKyiv(ctx.state.now) },
    secrets,
    tenderTokenHash,
  };
  await ctx.state.session.commit([updateOf(stored, credentialed)]);
  return { doc: credentialed, access };
}
