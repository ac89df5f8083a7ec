import type { ContractedItem, Item, Milestone } from '../../core/shapes';
import { apiError } from '../../../http/errors';
import type { Change, StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { insertOf } from '../../save-rules';
import { nextContractID, type ContractDoc } from '../../contract';
import { withTestTitles } from '../../core/test-mode';
import { withItemAttributes } from './contract-attributes';
import type { Award, Lot, Tender, TenderContract, TenderDoc, TenderOrganization, TenderProcuringEntity } from '../tender.types';

/**
 * A tender's contracts (docs/tenders.md §Contracts of a tender, docs/contracts.md §Contracts from awards): an
 * active award makes a `pending` contract, kept twice as the spec-era reference keeps it: in the tender's
 * `contracts` (`add_contract_to_tender`) and as a contract of the contracting module
 * (`save_contracts_to_contracting`), both with the same id.
 */

/** `delete_buyers_attr`: what a contract's buyer and suppliers do not carry over from the tender and the bid. */
const withoutPartyDetails = ({
  kind: _k,
  scale: _s,
  contactPoint: _c,
  id: _i,
  ...rest
}: TenderOrganization & TenderProcuringEntity & { id?: unknown }) => rest;

/**
 * `merge_items`, `prepare_tender_item_for_contract`, `set_attributes_to_contract_items`: the award's lot's (or the
 * tender's) items, each with the members the winning bid gives it replacing the tender's (its `unit` with the bid's
 * unit price), without `profile`, none whose quantity is 0, and with the winner's answers to the item's criteria as
 * its `attributes` (docs/tenders.md §Contracts of a tender).
 */
function contractItems(t: Tender, award: Award): ContractedItem[] {
  const bid = (t.bids ?? []).find((b) => b.id === award.bid_id);
  const fromBid = new Map((bid?.items ?? []).map((i) => [i.id, i]));
  const items = (t.items ?? [])
    .map((item): Item & { profile?: unknown } => ({ ...item, ...fromBid.get(item.id) }))
    .filter((i) => i.relatedLot === award.lotID && i.quantity !== 0)
    .map(({ profile: _p, ...item }) => item);
  return withItemAttributes(t, bid, items);
}

/** `add_contract_to_tender`: the title and description of the award's lot, or of the tender (docs/tenders.md §Contracts of a tender). */
function contractTitles(t: Tender, award: Award): Pick<TenderContract, 'title' | 'title_en' | 'description' | 'description_en'> {
  const source: Lot | Tender = (award.lotID && (t.lots ?? []).find((l) => l.id === award.lotID)) || t;
  const names = (['title', 'title_en', 'description', 'description_en'] as const).filter((name) => source[name] !== undefined);
  return Object.fromEntries(names.map((name) => [name, source[name]]));
}

/**
 * `add_contracts`: the tender's milestones and those of the award's lot, `scheduled`, without `relatedLot`, for
 * the contract object only (docs/tenders.md §Contracts of a tender).
 */
function contractMilestones(t: Tender, award: Award): { milestones: Omit<Milestone, 'relatedLot'>[] } | undefined {
  const milestones = (t.milestones ?? [])
    .filter((m) => m.relatedLot === undefined || m.relatedLot === award.lotID)
    .map(({ relatedLot: _l, ...m }) => ({ ...m, status: 'scheduled' }));
  return milestones.length ? { milestones } : undefined;
}

/**
 * `add_contracts`: the award's contract in the tender's `contracts`, `pending`, with the lot's (or the tender's)
 * title and description, the award's value (its `amountNet` the amount), suppliers and the lot's items as the
 * winning bid priced them; `contractID` is set when it is saved.
 */
export function addContracts(t: Tender, award: Award, now: Date): TenderContract {
  const contract: TenderContract = {
    id: newId(),
    awardID: award.id,
    status: 'pending',
    date: formatKyiv(now),
    ...contractTitles(t, award),
    ...(award.value ? { value: { ...award.value, amountNet: award.value.amount } } : {}),
    suppliers: award.suppliers,
    items: contractItems(t, award),
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
  t: Tender,
  added: TenderContract[],
  now: Date,
): Promise<Change[]> {
  const stamp = formatKyiv(now);
  const changes: Change[] = [];
  for (const contract of added) {
    const contractID = await nextContractID(session, t);
    contract.contractID = contractID;
    const { date: _date, ...data } = contract;
    const award = (t.awards ?? []).find((a) => a.id === contract.awardID)!;
    const doc: ContractDoc = {
      data: withTestTitles({
        ...data,
        contractID,
        suppliers: (contract.suppliers ?? []).map(withoutPartyDetails),
        buyer: withoutPartyDetails(t.procuringEntity),
        tender_id: t.id,
        ...(t.mode ? { mode: t.mode } : {}),
        owner: t.owner,
        ...contractMilestones(t, award),
        dateCreated: stamp,
        dateModified: stamp,
      }),
      config: { restricted: !!tenderDoc.config?.restricted },
      secrets: tenderDoc.secrets,
    };
    // The winning bid's owner names the supplier's signer (docs/contracts.md §Contracts from awards); for an award
    // the owner named, without a bid, the tender's owner does (`bid = tender`, docs/tenders.md §reporting).
    const bidAccess = award.bid_id ? tenderDoc.bidAccess?.[award.bid_id] : { owner: t.owner, secrets: tenderDoc.secrets };
    if (bidAccess) doc.supplierAccess = { data: { owner: bidAccess.owner }, secrets: bidAccess.secrets };
    changes.push(insertOf('contracts', doc));
  }
  return changes;
}

/**
 * `set_award_contracts_cancelled`: the award's contracts are cancelled with it, in the tender (ids returned for
 * the contracting module); an active one cannot be.
 */
export function setAwardContractsCancelled(t: Tender, award: Award): string[] {
  const ids: string[] = [];
  for (const contract of t.contracts ?? []) {
    if (contract.awardID !== award.id) continue;
    if (contract.status === 'active') throw apiError(403, "Can't cancel award contract in active status");
    contract.status = 'cancelled';
    ids.push(contract.id);
  }
  return ids;
}
