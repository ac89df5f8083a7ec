import { apiError } from '../../../http/errors';
import type { Change, Doc, StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { insertOf } from '../../core/objects';
import { nextContractID } from '../../contract/contract-lifecycle';
import { withTestTitles } from '../test-mode';
import type { ContractDoc } from '../../contract/contract-signer-info';
import { type TenderDoc } from '../tender-aggregate';

/**
 * A tender's contracts (docs/tenders.md §Contracts of a tender, docs/contracts.md §Contracts from awards): an
 * active award makes a `pending` contract, kept twice as the spec-era reference keeps it: in the tender's
 * `contracts` (`add_contract_to_tender`) and as a contract of the contracting module
 * (`save_contracts_to_contracting`), both with the same id.
 */

/** `delete_buyers_attr`: what a contract's buyer and suppliers do not carry over from the tender and the bid. */
const withoutPartyDetails = ({ kind: _k, scale: _s, contactPoint: _c, id: _i, ...rest }: Doc): Doc => rest;

/** `prepare_tender_item_for_contract`: the lot's (or the tender's) items, without `profile`. */
const contractItems = (t: Doc, lotId?: string): Doc[] =>
  (t.items ?? []).filter((i: Doc) => i.relatedLot === lotId).map(({ profile: _p, ...item }: Doc) => item);

/**
 * `add_contracts`: the award's contract in the tender's `contracts`, `pending`, with the award's value (its
 * `amountNet` the amount), suppliers and the lot's items; `contractID` is set when it is saved.
 */
export function addContracts(t: Doc, award: Doc, now: Date): Doc {
  const contract: Doc = {
    id: newId(),
    awardID: award.id,
    status: 'pending',
    date: formatKyiv(now),
    ...(award.value ? { value: { ...award.value, amountNet: award.value.amount } } : {}),
    suppliers: award.suppliers,
    items: contractItems(t, award.lotID),
  };
  t.contracts = [...(t.contracts ?? []), contract];
  return contract;
}

/**
 * `save_contracts_to_contracting`: numbers the tender's new contracts (`{tenderID}-a{n}`, as contracts the
 * contracting system posts) and makes each a contract object: the tender owner's, with its token, restricted
 * when the tender is; its buyer the procuring entity.
 */
export async function saveContractsToContracting(
  session: StoreSession,
  tenderDoc: TenderDoc,
  t: Doc,
  added: Doc[],
  now: Date,
): Promise<Change[]> {
  const stamp = formatKyiv(now);
  const changes: Change[] = [];
  for (const contract of added) {
    contract.contractID = await nextContractID(session, t);
    const { date: _date, ...data } = contract;
    const doc: ContractDoc = {
      data: withTestTitles({
        ...data,
        suppliers: (contract.suppliers as Doc[]).map(withoutPartyDetails),
        buyer: withoutPartyDetails(t.procuringEntity),
        tender_id: t.id,
        ...(t.mode ? { mode: t.mode } : {}),
        owner: t.owner,
        dateCreated: stamp,
        dateModified: stamp,
      }),
      config: { restricted: !!tenderDoc.config?.restricted },
      secrets: tenderDoc.secrets,
    };
    const award = (t.awards as Doc[]).find((a) => a.id === contract.awardID)!;
    const bidAccess = tenderDoc.bidAccess?.[award.bid_id];
    // The winning bid's owner names the supplier's signer (docs/contracts.md §Contracts from awards).
    if (bidAccess) doc.supplierAccess = { data: { owner: bidAccess.owner }, secrets: bidAccess.secrets };
    changes.push(insertOf('contracts', doc));
  }
  return changes;
}

/**
 * `set_award_contracts_cancelled`: the award's contracts are cancelled with it, in the tender (ids returned for
 * the contracting module); an active one cannot be.
 */
export function setAwardContractsCancelled(t: Doc, award: Doc): string[] {
  const ids: string[] = [];
  for (const contract of t.contracts ?? []) {
    if (contract.awardID !== award.id) continue;
    if (contract.status === 'active') throw apiError(403, "Can't cancel award contract in active status");
    contract.status = 'cancelled';
    ids.push(contract.id);
  }
  return ids;
}
