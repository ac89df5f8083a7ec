import type { OwnerSecrets } from '../../security/tokens';
import type { ObjectDoc } from '../core/object-doc';

/** What every broker may read of a transfer (docs/relocation.md §Transfers); `usedFor` names the object once used. */
export interface Transfer {
  id: string;
  date: string;
  usedFor?: string;
}

/**
 * A transfer as stored: `owner` is the broker that created it, `secrets` the hashes of the owner token and transfer
 * token it hands to the object it is used for.
 */
export type TransferDoc = ObjectDoc<Transfer, object, { owner: string }> & { secrets: OwnerSecrets };

/** What a change of owner reads and writes of an object of any kind it moves (docs/relocation.md §Changing the owner). */
export type OwnedObject = {
  id: string;
  owner: string;
  status: string;
  dateModified: string;
  /** A tender's: a central procuring entity's tender needs level 5. */
  procuringEntity?: { kind?: string };
};
