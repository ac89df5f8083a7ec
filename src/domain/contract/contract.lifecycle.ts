import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';
import { issueAccess, type Access } from '../../security/tokens';
import type { Change, StoreSession } from '../../store/port';
import type { ObjectDoc } from '../core/object-doc';
import { formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { insertOf, updateOf } from '../save-rules';
import { withTestTitles } from '../core/test-mode';
import { mergePatch, validated } from '../core/validation';
import { checkVersioned, CONTRACT_VERSIONED_RULES } from '../core/versioned-rules';
import { checkItemsUnitAmount, checkItemUnitCurrencies, withItemsPricedAsValue, type TenderCurrencies } from './contract-items';
import { CONTRACT_PATCH_RULES } from './contract.rules';
import { createContract as createSchema, patchContract as patchSchema, type ContractPatch, type ContractRequest } from './contract.schema';
import type { Contract, ContractDoc, ContractStatus } from './contract.types';

/** What a new contract reads of its tender. */
interface TenderOfContract {
  id: string;
  tenderID: string;
  mode?: 'test';
  owner: string;
  procuringEntity: Contract['procuringEntity'];
}

/** Contract statuses in which nothing may change any more. */
const FINAL: ContractStatus[] = ['terminated', 'cancelled'];

/** The next `contractID` of a tender's contracts: `{tenderID}-a{n}`, numbered per tender. */
export async function nextContractID(session: StoreSession, tender: Pick<TenderOfContract, 'id' | 'tenderID'>): Promise<string> {
  return `${tender.tenderID}-a${await session.nextCounter(`contractID:${tender.id}`)}`;
}

/**
 * `POST /contracts` from the `contracting` system: a `pending` contract of an existing tender, owned by the
 * tender's platform, `contractID` = `{tenderID}-a{n}`, restricted when the tender is (docs/contracts.md §Contract creation).
 */
export async function createContract(session: StoreSession, body: unknown, now: Date): Promise<{ doc: ContractDoc; access: Access }> {
  const request = validated<ContractRequest>(createSchema, body);
  const tender = await session.get('tenders', request.tender_id);
  if (!tender) throw apiError(422, ['tender_id should be one of tenders'], { name: 'tender_id' });
  const stamp = formatKyiv(now);
  checkVersioned(CONTRACT_VERSIONED_RULES, request, stamp);
  // The contract takes its number, mode, owner and procuring entity from its tender.
  const tenderDoc = tender.doc as ObjectDoc<TenderOfContract, { restricted?: boolean }, object>;
  const t = tenderDoc.data;
  const { access, secrets } = issueAccess();
  // The given items are replaced in place, with their ids, so the members keep their order.
  const { items } = request;
  const given: Omit<ContractRequest, 'items'> = request;
  const data: Contract = withTestTitles({
    id: newId(),
    contractID: await nextContractID(session, t),
    ...given,
    ...(items ? { items: items.map((i) => ({ id: newId(), ...i })) } : {}),
    ...(t.mode ? { mode: t.mode } : {}),
    procuringEntity: request.procuringEntity ?? t.procuringEntity,
    status: 'pending' as const,
    owner: t.owner,
    dateCreated: stamp,
    dateModified: stamp,
  });
  const doc: ContractDoc = { data, config: { restricted: !!tenderDoc.config?.restricted }, secrets };
  // The contracting system brings the award's documents and changes with the contract.
  await session.commit([insertOf('contracts', doc, ['documents', 'changes'])]);
  return { doc, access };
}

/**
 * A contract made from a tender's award answers to its tender too (docs/contracts.md §Contracts from awards): the
 * link checks the change against the tender and returns the tender's own update, saved with the contract. It runs
 * `activeChecks` after its checks of a pending contract and before those of signing, where the reference checks an
 * active contract's items (docs/contracts.md §Contract items), also when it finds nothing of the tender to check.
 */
export type TenderLink = (
  session: StoreSession,
  after: Contract,
  before: Contract,
  now: Date,
  activeChecks: () => void,
) => Promise<Change[]>;

/** What the item rules read of the contract's tender (docs/contracts.md §Contract items). */
async function currencyRules(session: StoreSession, tenderId: string): Promise<TenderCurrencies> {
  const tender = await session.get('tenders', tenderId);
  const doc = tender?.doc as ObjectDoc<{ funders?: unknown[] }, { valueCurrencyEquality?: boolean }, object> | undefined;
  return { valueCurrencyEquality: doc?.config?.valueCurrencyEquality, funded: !!doc?.data.funders?.length };
}

/**
 * `PATCH /contracts/{id}` by its owner: status, period, value, dateSigned, items; saved only when changed. A
 * contract of an award goes through `link` as well. The body is validated before the status is judged, as the
 * reference's validators run (docs/contracts.md §Contract status machine); items given are checked against the
 * tender's currency rule with the body, and new ones get an id (docs/contracts.md §Contract items).
 */
export async function patchContract(
  session: StoreSession,
  stored: StoredObject<ContractDoc>,
  body: unknown,
  now: Date,
  link: TenderLink,
): Promise<ContractDoc> {
  const before = stored.doc.data;
  const { items, ...patch } = validated<ContractPatch>(patchSchema, body);
  const involvesItems = !!items || !!before.items?.some((i) => i.unit?.value);
  const tender: TenderCurrencies = involvesItems ? await currencyRules(session, before.tender_id) : {};
  if (items && tender.valueCurrencyEquality === true) checkItemUnitCurrencies(items, patch.value, before);
  if (FINAL.includes(before.status)) throw apiError(403, `Can't update contract in current (${before.status}) status`);
  const merged: Contract = mergePatch(before, items ? { ...patch, items: items.map((i) => ({ id: newId(), ...i })) } : patch);
  for (const rule of CONTRACT_PATCH_RULES) rule(merged, before, now);
  const data = withTestTitles(withItemsPricedAsValue(merged, tender));
  if (isDeepStrictEqual(data, before)) return stored.doc;
  const activeChecks = () => checkItemsUnitAmount(data, tender.valueCurrencyEquality === false);
  const tenderChanges = before.awardID ? await link(session, data, before, now, activeChecks) : (activeChecks(), []);
  const doc: ContractDoc = { ...stored.doc, data: { ...data, dateModified: formatKyiv(now) } };
  await session.commit([updateOf(stored, doc), ...tenderChanges]);
  return doc;
}
