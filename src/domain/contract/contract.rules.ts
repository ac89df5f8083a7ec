import { apiError } from '../../http/errors';
import { itemsKeepTheirTerms } from './contract-items';
import type { Contract, ContractStatus } from './contract.types';

/** Named rules of contract PATCHes (contracting API, spec era). */
export type ContractRule = (contract: Contract, before: Contract, now: Date) => void;

/**
 * The contract's state machine, every transition and where it is applied (no automatic one: a contract has no events).
 * - (none) → pending: the contracting system's `POST /contracts`, contract.lifecycle.ts (docs/contracts.md §Contract creation),
 *   or a tender's active award, tender/contracts/add-contracts.ts (docs/contracts.md §Contracts from awards).
 * - pending → active → terminated: the owner's PATCH, checked here (docs/contracts.md §Contract status machine); a
 *   contract of an award also updates its tender's copy and status, tender/contracts/contract-signing.ts.
 * - pending → cancelled: its active award cancelled, tender/awards/award.lifecycle.ts, or its tender or lot
 *   cancelled, tender/cancellations/cancellation.lifecycle.ts (docs/tenders.md §Awards, §Cancellations).
 * Any other change of status by PATCH is refused.
 */
const NEXT: Partial<Record<ContractStatus, ContractStatus[]>> = { pending: ['active'], active: ['terminated'] };

export const statusMovesForward: ContractRule = (c, before) => {
  if (c.status !== before.status && !(NEXT[before.status] ?? []).includes(c.status)) {
    throw apiError(403, "Can't update contract status");
  }
};

/**
 * `amountNet` against `amount`: equal without VAT; with VAT at least amountNet and at most 20% above it
 * (`validate_update_contract_value_amount`).
 */
export const amountNetFitsAmount: ContractRule = (c) => {
  const v = c.value;
  if (!v || v.amountNet === undefined || v.amount === undefined) return;
  if (v.valueAddedTaxIncluded) {
    if (v.amount < v.amountNet || v.amount > v.amountNet * 1.2) {
      throw apiError(403, 'Amount should be equal or greater than amountNet and differ by no more than 20.0%', { name: 'value' });
    }
  } else if (v.amount !== v.amountNet) {
    throw apiError(403, 'Amount and amountNet should be equal', { name: 'value' });
  }
};

export const dateSignedNotInFuture: ContractRule = (c, before, now) => {
  if (c.dateSigned && c.dateSigned !== before.dateSigned && Date.parse(c.dateSigned) > now.getTime()) {
    throw apiError(422, ["Contract signature date can't be in the future"], { name: 'dateSigned' });
  }
};

/**
 * In the reference's order (`ContractState.validate_contract_patch`, docs/contracts.md §Contract status machine): the
 * signing date, the status, the items, the value.
 */
export const CONTRACT_PATCH_RULES: ContractRule[] = [dateSignedNotInFuture, statusMovesForward, itemsKeepTheirTerms, amountNetFitsAmount];
