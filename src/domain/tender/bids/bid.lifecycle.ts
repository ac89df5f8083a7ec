import type { Account } from '../../../http/auth';
import { apiError } from '../../../http/errors';
import { issueAccess, type Access } from '../../../security/tokens';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { itemById, itemsOf } from '../../core/items';
import type { ObjectDoc } from '../../core/objects';
import type { Actor } from '../../core/actor';
import type { DocumentHolder } from '../../documents';
import { validated } from '../../core/validation';
import { inWindow, type BidPolicy, type TenderContext } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { bidsArePrivate } from './bid.view';
import { respondedAs } from './requirement-response.rules';
import { tenderOf, saveTender, type StoredTender, type TenderDoc } from '../tender-aggregate';
import type { Value } from '../../core/shapes';
import type { Bid, BidDocument, BidRequest, LotValue, LotValueRequest, Tender } from '../tender.types';

/**
 * A tender's bids (docs/tenders.md §Bids): sealed while private, then in the tender's `bids`, each with an owner
 * token of its own. The owner's name and the token hashes stay outside `data` (`bidAccess`). Bid changes
 * leave the tender's `dateModified` alone, as the reference's `save_tender(modified=False)`: bids are private
 * while tendering lasts, and a moving `dateModified` would tell readers when someone bids.
 */

export const bidsOf = (tender: Tender): Bid[] => itemsOf(tender, 'bids');
export const findBid = (tender: Tender, bidId: string): Bid => itemById(tender, 'bids', bidId, 'bid_id');

/** The bid's owner as an object the owner check reads: the broker that created it and its token hash. */
export function bidOwnership(doc: TenderDoc, bidId: string): ObjectDoc {
  const access = doc.bidAccess?.[bidId];
  return { data: { owner: access?.owner }, secrets: access?.secrets };
}

/** A tender's bid, for a route on it: 404 for an unknown one. */
export interface TenderBid {
  stored: StoredTender;
  bid: Bid;
}

/** `validate_accreditation_level(item="bid")`. */
function requireBidAccreditation(account: Account, levels: string[]): void {
  if (!levels.some((level) => account.levels.includes(level))) {
    throw apiError(403, 'Broker Accreditation level does not permit bid creation', { location: 'url', name: 'accreditation' });
  }
}

const DONE = { add: 'added', update: 'updated', delete: 'deleted' } as const;

/** `validate_bid_operation_not_in_tendering` then `validate_bid_operation_period`, worded by the `operation`. */
function requireTenderingOpen(tender: Tender, operation: keyof typeof DONE, now: Date): void {
  if (!inWindow(procedureOfStored(tender), 'bids', tender.status))
    throw apiError(403, `Can't ${operation} bid in current (${tender.status}) tender status`);
  const { startDate, endDate } = tender.tenderPeriod ?? {};
  const at = now.getTime();
  if ((startDate && at < Date.parse(startDate)) || at > Date.parse(endDate ?? '')) {
    throw apiError(403, `Bid can be ${DONE[operation]} only during the tendering period: from (${startDate}) to (${endDate}).`);
  }
}

/** Currency and VAT default to those of the value the bid answers (the lot's, else the tender's). */
function withValueDefaults(bid: Bid, tender: Tender): Bid {
  const fill = (value: Value | undefined, of: Value | undefined) =>
    value && {
      ...value,
      currency: value.currency ?? of?.currency,
      valueAddedTaxIncluded: value.valueAddedTaxIncluded ?? of?.valueAddedTaxIncluded,
    };
  const lotValue = (relatedLot?: string) => itemsOf(tender, 'lots').find((l) => l.id === relatedLot)?.value;
  const out: Bid = { ...bid };
  if (bid.value) out.value = fill(bid.value, tender.value);
  if (bid.lotValues) out.lotValues = bid.lotValues.map((v) => ({ ...v, value: fill(v.value, lotValue(v.relatedLot)) }));
  return out;
}

/** The tender's bid policy: the bid routes load only a tender whose procedure has bids (bid.routes.ts). */
const bidPolicyOf = (tender: Tender): BidPolicy => procedureOfStored(tender).bids!;

async function runBidRules(bid: Bid, tender: Tender, ctx: TenderContext): Promise<void> {
  const windows = procedureOfStored(tender).windows;
  for (const rule of bidPolicyOf(tender).rules) await rule(bid, tender, { ...ctx, windows });
}

const contextOf = (session: StoreSession, stored: StoredTender, now: Date): TenderContext => ({
  now,
  session,
  config: stored.doc.config ?? {},
});

async function saveBids(session: StoreSession, stored: StoredTender, bids: Bid[], bidAccess: TenderDoc['bidAccess']): Promise<void> {
  await saveTender(session, stored, { ...stored.doc.data, bids }, { writes: ['bids'], hidden: { bidAccess } });
}

/**
 * `POST /tenders/{id}/bids` (spec-era `BidState.on_post`) by any broker: 201 with the bid and its own owner token.
 * The request's `data` is read once the accreditation and the tendering period let the bid in: those refusals answer first.
 */
export async function createBid(
  session: StoreSession,
  stored: StoredTender,
  data: () => unknown,
  { account, now }: Actor,
): Promise<{ bid: Bid; access: Access }> {
  const tender = tenderOf(stored.doc);
  const policy = bidPolicyOf(tender);
  requireBidAccreditation(account, policy.accreditation);
  requireTenderingOpen(tender, 'add', now);
  const request = validated<BidRequest>(policy.schemas.create, data());
  const stamp = formatKyiv(now);
  const status = request.status ?? 'draft';
  if (!['draft', 'pending'].includes(status))
    throw apiError(403, "Bid can be added only with status: ('draft', 'pending').", { name: 'bid' });
  // Each member where the request put it: the lot values and responses are given their server parts just below.
  const placed = { ...request, status, id: newId(), date: stamp } as Bid;
  if (request.lotValues) placed.lotValues = request.lotValues.map((v) => ({ status: 'pending', ...v, date: stamp }));
  if (request.requirementResponses) placed.requirementResponses = respondedAs(tender, request.requirementResponses);
  const bid = withValueDefaults(placed, tender);
  await runBidRules(bid, tender, contextOf(session, stored, now));
  const { access, secrets } = issueAccess();
  await saveBids(session, stored, [...bidsOf(tender), bid], { ...stored.doc.bidAccess, [bid.id]: { owner: account.name, secrets } });
  return { bid, access };
}

/** lotValues change position by position, as the reference's `apply_data_patch`; each keeps its date unless its amount moves. */
function patchedLotValues(before: LotValue[], patch: LotValueRequest[], now: string): LotValue[] {
  return patch.map((p, i) => {
    const old = before.at(i);
    const merged = { ...old, ...p, value: p.value ? { ...old?.value, ...p.value } : old?.value };
    if (!old || old.relatedLot !== merged.relatedLot || old.value?.amount !== merged.value?.amount) return { ...merged, date: now };
    return { ...merged, date: old.date };
  });
}

/** `PATCH /tenders/{id}/bids/{bid_id}` by the bid's owner (spec-era `BidState.on_patch`). */
export async function patchBid(session: StoreSession, { stored, bid: before }: TenderBid, data: unknown, now: Date): Promise<Bid> {
  const tender = tenderOf(stored.doc);
  const patch = validated<BidRequest>(bidPolicyOf(tender).schemas.patch, data);
  requireTenderingOpen(tender, 'update', now);
  if (patch.status !== undefined && patch.status !== before.status && patch.status !== 'pending') {
    throw apiError(403, `Can't update bid to (${patch.status}) status`, { name: 'bid' });
  }
  const stamp = formatKyiv(now);
  const { lotValues, value, requirementResponses, ...rest } = patch;
  const after: Bid = { ...before, ...rest };
  if (value) after.value = { ...before.value, ...value };
  if (lotValues) after.lotValues = patchedLotValues(before.lotValues ?? [], lotValues, stamp);
  if (requirementResponses) after.requirementResponses = respondedAs(tender, requirementResponses, before.requirementResponses);
  const bid = withValueDefaults(after, tender);
  if (bid.value?.amount !== before.value?.amount) bid.date = stamp;
  await runBidRules(bid, tender, contextOf(session, stored, now));
  await saveBids(
    session,
    stored,
    bidsOf(tender).map((b) => (b.id === before.id ? bid : b)),
    stored.doc.bidAccess,
  );
  return bid;
}

/** `DELETE /tenders/{id}/bids/{bid_id}` by the bid's owner while tendering lasts: the bid is withdrawn (removed). */
export async function deleteBid(session: StoreSession, { stored, bid }: TenderBid, now: Date): Promise<Bid> {
  requireTenderingOpen(stored.doc.data, 'delete', now);
  const { [bid.id]: _gone, ...bidAccess } = stored.doc.bidAccess ?? {};
  await saveBids(
    session,
    stored,
    bidsOf(tenderOf(stored.doc)).filter((b) => b.id !== bid.id),
    bidAccess,
  );
  return bid;
}

/**
 * A bid document added (`POST`) or updated (`PUT`, `PATCH`) by the bid's owner, in the procedure's `bidDocuments`
 * window (`validate_bid_document_in_tender_status`) and the periods the reference allows: while bids may change,
 * within the tendering period, afterwards only for an awarded bid; `verb` words the refusals (docs/tenders.md §Bids).
 */
function requireBidDocumentAllowed(tender: Tender, bid: Bid, verb: 'add' | 'update', now: Date): void {
  const { status, tenderPeriod } = tender;
  const procedure = procedureOfStored(tender);
  if (!inWindow(procedure, 'bidDocuments', status)) throw apiError(403, `Can't ${verb} document in current (${status}) tender status`);
  const at = now.getTime();
  const bidding = inWindow(procedure, 'bids', status);
  if (bidding && ((tenderPeriod.startDate && at < Date.parse(tenderPeriod.startDate)) || at > Date.parse(tenderPeriod.endDate))) {
    throw apiError(
      403,
      `Document can be ${verb === 'add' ? 'added' : 'updated'} only during the tendering period: from (${tenderPeriod.startDate}) to (${tenderPeriod.endDate}).`,
    );
  }
  const awarded = itemsOf(tender, 'awards').some((a) => a.status === 'active' && a.bid_id === bid.id);
  if (!bidding && !awarded) {
    throw apiError(403, `Can't ${verb} document because award of bid is not in one of statuses ('active',)`);
  }
  if (['unsuccessful', 'deleted'].includes(bid.status)) throw apiError(403, `Can't ${verb} document at '${bid.status}' bid status`);
}

/**
 * `validate_update_bid_document_confidentiality`: after tendering a bid document's `confidentiality` stays as it is
 * (docs/platform.md §Document fields).
 */
function requireConfidentialityKept(tender: Tender, before: BidDocument[], after: BidDocument[]): void {
  if (inWindow(procedureOfStored(tender), 'bids', tender.status)) return;
  const latest = (documents: BidDocument[]) => new Map(documents.map((d) => [d.id, d.confidentiality ?? 'public']));
  const was = latest(before);
  for (const [id, confidentiality] of latest(after)) {
    if (was.has(id) && was.get(id) !== confidentiality) {
      throw apiError(403, `Can't update document confidentiality in current (${tender.status}) tender status`);
    }
  }
}

/** A bid's documents, for a change by the bid's owner (`requireBidDocumentAllowed`), saved with the tender. */
export function bidDocuments(held: TenderBid): DocumentHolder & TenderBid {
  const { stored, bid } = held;
  const tender = tenderOf(stored.doc);
  return {
    ...held,
    documents: itemsOf(bid, 'documents'),
    listPath: `/api/2.5/tenders/${tender.id}/bids/${bid.id}/documents`,
    parent: tender,
    writable: (verb, now) => requireBidDocumentAllowed(tender, bid, verb, now),
    async save(documents, session, now) {
      // The document routes hand back the documents they checked (docs/platform.md §Document versions).
      const checked = documents as BidDocument[];
      requireConfidentialityKept(tender, itemsOf(bid, 'documents'), checked);
      const bids = bidsOf(tender).map((b) => (b.id === bid.id ? { ...b, documents: checked } : b));
      // While bids are private the tender's dateModified stays (docs/tenders.md §Bids); afterwards the change is public.
      const dateModified = bidsArePrivate(procedureOfStored(tender), tender) ? tender.dateModified : formatKyiv(now);
      await saveTender(session, stored, { ...tender, bids, dateModified }, { writes: ['bids'] });
    },
  };
}
