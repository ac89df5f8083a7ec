import { isDeepStrictEqual } from 'node:util';
import { apiError, forbidden } from '../../../http/errors';
import type { Change, StoreSession } from '../../../store/port';
import { dateMathOf } from '../../../time/acceleration';
import { formatKyiv } from '../../../time/kyiv';
import { calculateDate, calculateTenderFullDate } from '../../../time/periods';
import { newId } from '../../core/ids';
import { itemById, itemsOf } from '../../core/items';
import { loadObject } from '../../core/objects';
import { updateOf } from '../../save-rules';
import { mergePatch, validated } from '../../core/validation';
import type { DocumentHolder } from '../../documents';
import { addContracts, saveContractsToContracting, setAwardContractsCancelled } from '../contracts/add-contracts';
import { inWindow, type AwardPolicy } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { addNextAward } from './add-next-award';
import { tenderChange, tenderOf, type StoredTender } from '../tender-aggregate';
import type { Document } from '../../core/shapes';
import type { ContractDoc } from '../../contract/contract.types';
import type { Award, Tender, TenderConfig, TenderContract } from '../tender.types';
import type { AwardPatch } from './award.schema';

/** A tender's awards (docs/tenders.md §Awards): made by the server, decided by the tender's owner. */
export const findAward = (tender: Pick<Tender, 'awards'>, awardId: string): Award => itemById(tender, 'awards', awardId, 'award_id');

/** A tender's award, for a route on it: 404 for an unknown one. */
export interface TenderAward {
  stored: StoredTender;
  award: Award;
}

/**
 * The tender in one of `statuses` and the award's lot active (`validate_update_award_in_not_allowed_status` and
 * `validate_update_award_only_for_active_lots`, or their award document counterparts), else a 403 worded by `verb`.
 */
export function requireAwardingOpen(
  tender: Tender,
  award: Award,
  window: 'awards' | 'awardDocuments',
  verb: 'update award' | 'add document' | 'update document',
): void {
  const [operation, what] = verb.split(' ');
  if (!inWindow(procedureOfStored(tender), window, tender.status))
    throw apiError(403, `Can't ${verb} in current (${tender.status}) tender status`);
  if ((tender.lots ?? []).some((l) => l.id === award.lotID && l.status !== 'active')) {
    throw apiError(403, `Can ${operation} ${what} only in active lot status`);
  }
}

/** `check_active_awards` (without awarding order): one active award per lot (or tender). */
function checkActiveAwards(t: Tender, award: Award): void {
  if ((t.awards ?? []).some((a) => a.id !== award.id && a.status === 'active' && a.lotID === award.lotID)) {
    const forLot = award.lotID ? ' for this lot' : '';
    throw apiError(422, `Can't activate award as tender already has active award${forLot}`, { name: 'awards' });
  }
}

/** What an owner's `POST` of an award gives (docs/tenders.md §reporting): the server sets its id, date and status. */
export type AwardRequest = Pick<Award, 'suppliers' | 'value' | 'qualified' | 'lotID'> & Partial<Pick<Award, 'status'>>;

/** `validate_lot_id`: an award the owner names on a tender with lots names one of them (docs/tenders.md §negotiation and negotiation.quick). */
function requireLotOf(tender: Tender, lotID: string | undefined): void {
  if (!lotID && tender.lots?.length) throw apiError(422, ['This field is required.'], { name: 'lotID' });
  if (lotID && !(tender.lots ?? []).some((l) => l.id === lotID)) throw apiError(422, ['lotID should be one of lots'], { name: 'lotID' });
}

/**
 * `validate_create_new_award(_with_lots)`: no new award while one of the tender (or of the award's lot) is pending
 * or active; the text names the status of the tender's last award, as the reference's does.
 */
function requireNoLiveAward(tender: Tender, lotID: string | undefined): void {
  const last = tender.awards?.at(-1);
  const live = (a: Award) => ['pending', 'active'].includes(a.status);
  if (!last) return;
  if (tender.lots?.length) {
    if ((tender.awards ?? []).some((a) => a.lotID === lotID && live(a)))
      throw apiError(403, `Can't create new award on lot while any (${last.status}) award exists`);
  } else if (live(last)) {
    throw apiError(403, `Can't create new award while any (${last.status}) award exists`);
  }
}

/** `validate_award_same_lot_id`: an award moved to a lot where another is pending or active is refused. */
function requireLotFree(tender: Tender, award: Award): void {
  const taken = (tender.awards ?? []).some((a) => a.lotID === award.lotID && a.id !== award.id && ['pending', 'active'].includes(a.status));
  if (taken) throw apiError(422, 'Another award is already using this lotID.', { name: 'lotID' });
}

/**
 * `POST /tenders/{id}/awards` by the tender's owner, where the procedure has the owner name the supplier
 * (docs/tenders.md §reporting): a `pending` award, in the awards window, while no earlier award is pending or
 * active (`validate_create_new_award`). Where awards come from bids only the reference's administrators may add
 * one: the owner is refused as they are.
 */
export async function addAward(session: StoreSession, stored: StoredTender, request: Record<string, unknown>, now: Date): Promise<Award> {
  const tender = structuredClone(tenderOf(stored.doc));
  const procedure = procedureOfStored(tender);
  if (!procedure.awards.create) throw forbidden();
  const asked = validated<AwardRequest>(procedure.awards.create, request);
  requireLotOf(tender, asked.lotID);
  if (!inWindow(procedure, 'awards', tender.status)) throw apiError(403, `Can't create award in current (${tender.status}) tender status`);
  requireNoLiveAward(tender, asked.lotID);
  const award: Award = { status: 'pending', ...asked, id: newId(), date: formatKyiv(now) };
  tender.awards = [...itemsOf(tender, 'awards'), award];
  await session.commit([tenderChange(stored, { ...tender, dateModified: formatKyiv(now) }, { writes: ['awards'] })]);
  return award;
}

/** What a decision leaves to do outside the tender: contracts to create and contracts to cancel. */
interface Effects {
  added: TenderContract[];
  cancelled: string[];
}

/** The award's stand-still from now (`complaintPeriod`), where the procedure has one. */
function setStandStill(t: Tender, award: Award, now: Date, { standStill, standStillFullDays }: AwardPolicy): void {
  if (!standStill) return;
  const end = (standStillFullDays ? calculateTenderFullDate : calculateDate)(now, standStill, dateMathOf(t));
  award.complaintPeriod = { startDate: formatKyiv(now), endDate: formatKyiv(end) };
}

/**
 * `award_status_up`: pending → active (the stand-still, the contract, the next award), pending → unsuccessful
 * (the stand-still, the next award), active → cancelled (its contracts cancelled, the next award); nothing else.
 */
function awardStatusUp(t: Tender, before: Award, award: Award, now: Date, config: TenderConfig, policy: AwardPolicy): Effects {
  const stamp = formatKyiv(now);
  const effects: Effects = { added: [], cancelled: [] };
  const move = `${before.status}→${award.status}`;
  if (move === 'pending→active' || move === 'pending→unsuccessful') {
    if (move === 'pending→active' && config.hasAwardingOrder === false) checkActiveAwards(t, award);
    if (award.status === 'active' || policy.refusalStandStill) setStandStill(t, award, now, policy);
    if (award.status === 'active') effects.added.push(addContracts(t, award, now));
  } else if (move === 'active→cancelled') {
    if (award.complaintPeriod?.endDate && Date.parse(award.complaintPeriod.endDate) > now.getTime()) award.complaintPeriod.endDate = stamp;
    effects.cancelled = setAwardContractsCancelled(t, award);
  } else {
    throw apiError(403, `Can't update award in current (${before.status}) status`);
  }
  award.date = stamp;
  t.awards = itemsOf(t, 'awards').map((a) => (a.id === award.id ? award : a));
  // Where the owner names awards, the next one is the owner's too (docs/tenders.md §reporting).
  if (!policy.create) addNextAward(t, now, config, procedureOfStored(t));
  return effects;
}

/** `update_econtracts_statuses`: the contracting module's copies of cancelled contracts. */
export async function cancelledContracts(session: StoreSession, ids: string[], now: Date): Promise<Change[]> {
  const changes: Change[] = [];
  for (const id of ids) {
    const stored = await loadObject<ContractDoc>(session, 'contracts', id);
    const data = { ...stored.doc.data, status: 'cancelled', date: formatKyiv(now), dateModified: formatKyiv(now) };
    changes.push(updateOf(stored, { ...stored.doc, data }));
  }
  return changes;
}

/**
 * `PATCH /tenders/{id}/awards/{award_id}` by the tender's owner (spec-era `TenderAwardResource.patch` and
 * `AwardStateMixing.award_on_patch`): a pending award's texts change freely; a change of status is a decision,
 * checked by the procedure's rules. Saved with the tender's new awards, contracts and status in one write.
 */
export async function patchAward(
  session: StoreSession,
  { stored, award: found }: TenderAward,
  request: Record<string, unknown>,
  now: Date,
): Promise<Award> {
  const tender = structuredClone(tenderOf(stored.doc));
  const before = findAward(tender, found.id);
  const procedure = procedureOfStored(tender);
  const patch = validated<AwardPatch>(procedure.awards.schema, request);
  requireAwardingOpen(tender, before, 'awards', 'update award');
  const award = mergePatch(before, patch);
  if (award.lotID !== before.lotID) {
    requireLotOf(tender, award.lotID);
    requireLotFree(tender, award);
  }
  const config = stored.doc.config ?? {};
  let effects: Effects = { added: [], cancelled: [] };
  if (award.status !== before.status) {
    for (const rule of procedure.awards.rules) rule(award, before);
    effects = awardStatusUp(tender, before, award, now, config, procedure.awards);
  } else if (award.status !== 'pending') {
    throw apiError(403, `Can't update award in current (${before.status}) status`);
  } else if (isDeepStrictEqual(award, before)) {
    return before;
  } else {
    tender.awards = itemsOf(tender, 'awards').map((a) => (a.id === award.id ? award : a));
  }
  const data = { ...tender, dateModified: formatKyiv(now) };
  // The contracts are numbered first: the tender keeps their contractID too.
  const contracts = await saveContractsToContracting(session, stored.doc, data, effects.added, now);
  const cancelled = await cancelledContracts(session, effects.cancelled, now);
  await session.commit([tenderChange(stored, data, { writes: ['awards', 'contracts'] }), ...contracts, ...cancelled]);
  return findAward(data, found.id);
}

/**
 * An award's documents, changed by the tender's owner while the tender is in qualification and the award's lot
 * active (`validate_award_document_tender_not_in_allowed_status_base`, `validate_award_document_lot_not_in_allowed_status`;
 * uploads, versions and metadata alike, docs/tenders.md §Awards); saved with the tender, dated now.
 */
export function awardDocuments(held: TenderAward): DocumentHolder & TenderAward {
  const { stored, award } = held;
  const tender = tenderOf(stored.doc);
  return {
    ...held,
    documents: itemsOf(award, 'documents'),
    listPath: `/api/2.5/tenders/${tender.id}/awards/${award.id}/documents`,
    parent: tender,
    writable: (verb) => requireAwardingOpen(tender, award, 'awardDocuments', `${verb} document`),
    async save(documents, session, now) {
      // The document routes hand back the documents they checked (docs/platform.md §Document versions).
      const awards = itemsOf(tender, 'awards').map((a) => (a.id === award.id ? { ...a, documents: documents as Document[] } : a));
      const data = { ...tender, awards, dateModified: formatKyiv(now) };
      await session.commit([tenderChange(stored, data, { writes: ['awards'] })]);
    },
  };
}
