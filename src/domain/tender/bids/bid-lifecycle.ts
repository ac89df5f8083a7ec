import type { Ctx } from '../../../http/context';
import { bodyData } from '../../../http/body';
import { apiError } from '../../../http/errors';
import { issueAccess, type Access } from '../../../security/tokens';
import type { Doc } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { itemById, itemsOf } from '../../core/items';
import type { ObjectDoc } from '../../core/objects';
import { isOwner, requireBroker } from '../../core/owner';
import { validated } from '../../core/validation';
import type { TenderContext } from '../procedure';
import { procedureOfStored } from '../tender-lifecycle';
import { loadTender, tenderOf, saveTender, type StoredTender, type TenderDoc } from '../tender-aggregate';

/**
 * A tender's bids (docs/tenders.md §Bids): sealed while private, then in the tender's `bids`, each with an owner
 * token of its own. The owner's name and the token hashes stay outside `data` (`bidAccess`). Bid changes
 * leave the tender's `dateModified` alone, as the reference's `save_tender(modified=False)`: bids are private
 * while tendering lasts, and a moving `dateModified` would tell readers when someone bids.
 */

export const bidsOf = (tender: Doc): Doc[] => itemsOf(tender, 'bids');
export const findBid = (tender: Doc, bidId: string) => itemById(tender, 'bids', bidId, 'bid_id');

/** The bid's owner as an object the owner check reads: the broker that created it and its token hash. */
export function bidOwnership(doc: TenderDoc, bidId: string): ObjectDoc {
  const access = doc.bidAccess?.[bidId];
  return { data: { owner: access?.owner }, secrets: access?.secrets };
}

export const isBidOwner = (ctx: Ctx, doc: TenderDoc, bidId: string) => isOwner(ctx, bidOwnership(doc, bidId));

/** `validate_accreditation_level(item="bid")`. */
function requireBidAccreditation(ctx: Ctx, levels: string[]): void {
  const held = ctx.state.viewer.account?.levels ?? '';
  if (!levels.some((level) => held.includes(level))) {
    throw apiError(403, 'Broker Accreditation level does not permit bid creation', { location: 'url', name: 'accreditation' });
  }
}

const OPERATION: Record<string, string> = { POST: 'add', PATCH: 'update', DELETE: 'delete' };
const DONE: Record<string, string> = { POST: 'added', PATCH: 'updated', DELETE: 'deleted' };

/** `validate_bid_operation_not_in_tendering` then `validate_bid_operation_period`. */
export function requireTenderingOpen(ctx: Ctx, tender: Doc): void {
  const { method } = ctx;
  if (tender.status !== 'active.tendering')
    throw apiError(403, `Can't ${OPERATION[method]} bid in current (${tender.status}) tender status`);
  const { startDate, endDate } = tender.tenderPeriod ?? {};
  const now = ctx.state.now.getTime();
  if ((startDate && now < Date.parse(startDate)) || now > Date.parse(endDate ?? '')) {
    throw apiError(403, `Bid can be ${DONE[method]} only during the tendering period: from (${startDate}) to (${endDate}).`);
  }
}

/** Currency and VAT default to those of the value the bid answers (the lot's, else the tender's). */
function withValueDefaults(bid: Doc, tender: Doc): Doc {
  const fill = (value: Doc | undefined, of: Doc | undefined) =>
    value && {
      ...value,
      currency: value.currency ?? of?.currency,
      valueAddedTaxIncluded: value.valueAddedTaxIncluded ?? of?.valueAddedTaxIncluded,
    };
  const lotValue = (relatedLot: string) => itemsOf(tender, 'lots').find((l) => l.id === relatedLot)?.value;
  const out: Doc = { ...bid };
  if (bid.value) out.value = fill(bid.value, tender.value);
  if (bid.lotValues) out.lotValues = (bid.lotValues as Doc[]).map((v) => ({ ...v, value: fill(v.value, lotValue(v.relatedLot)) }));
  return out;
}

async function runBidRules(bid: Doc, tender: Doc, ctx: TenderContext): Promise<void> {
  for (const rule of procedureOfStored(tender).bids.rules) await rule(bid, tender, ctx);
}

const contextOf = (ctx: Ctx, stored: StoredTender): TenderContext => ({
  now: ctx.state.now,
  session: ctx.state.session,
  config: stored.doc.config ?? {},
});

async function saveBids(ctx: Ctx, stored: StoredTender, bids: Doc[], bidAccess: TenderDoc['bidAccess']): Promise<void> {
  await saveTender(ctx.state.session, stored, { ...stored.doc.data, bids }, { writes: ['bids'], hidden: { bidAccess } });
}

/** `POST /tenders/{id}/bids` (spec-era `BidState.on_post`): 201 with the bid and its own owner token. */
export async function createBid(ctx: Ctx, tenderId: string): Promise<{ bid: Doc; access: Access }> {
  const stored: StoredTender = await loadTender(ctx.state.session, tenderId);
  requireBroker(ctx);
  const tender = tenderOf(stored.doc);
  const policy = procedureOfStored(tender).bids;
  requireBidAccreditation(ctx, policy.accreditation);
  requireTenderingOpen(ctx, tender);
  const request = withValueDefaults(validated<Doc>(policy.schemas.create, bodyData(ctx)), tender);
  const stamp = formatKyiv(ctx.state.now);
  const status = request.status ?? 'draft';
  if (!['draft', 'pending'].includes(status))
    throw apiError(403, "Bid can be added only with status: ('draft', 'pending').", { name: 'bid' });
  const bid: Doc = { ...request, status, id: newId(), date: stamp };
  if (request.lotValues) bid.lotValues = (request.lotValues as Doc[]).map((v) => ({ status: 'pending', ...v, date: stamp }));
  await runBidRules(bid, tender, contextOf(ctx, stored));
  const { access, secrets } = issueAccess();
  const owner = ctx.state.viewer.account!.name;
  await saveBids(ctx, stored, [...bidsOf(tender), bid], { ...stored.doc.bidAccess, [bid.id]: { owner, secrets } });
  return { bid, access };
}

/** The stored tender and bid, for a change by the bid's owner (403 Forbidden for anyone else). */
async function ownedBid(ctx: Ctx, tenderId: string, bidId: string): Promise<{ stored: StoredTender; bid: Doc }> {
  const stored: StoredTender = await loadTender(ctx.state.session, tenderId);
  const bid = findBid(tenderOf(stored.doc), bidId);
  requireBroker(ctx);
  if (!isBidOwner(ctx, stored.doc, bidId)) throw apiError(403, 'Forbidden', { location: 'url', name: 'permission' });
  return { stored, bid };
}

/** lotValues change position by position, as the reference's `apply_data_patch`; each keeps its date unless its amount moves. */
function patchedLotValues(before: Doc[], patch: Doc[], now: string): Doc[] {
  return patch.map((p, i) => {
    const old = before[i];
    const merged: Doc = { ...old, ...p, value: p.value ? { ...old?.value, ...p.value } : old?.value };
    const moved = !old || old.relatedLot !== merged.relatedLot || old.value?.amount !== merged.value?.amount;
    return { ...merged, date: moved ? now : old.date };
  });
}

/** `PATCH /tenders/{id}/bids/{bid_id}` by the bid's owner (spec-era `BidState.on_patch`). */
export async function patchBid(ctx: Ctx, tenderId: string, bidId: string): Promise<Doc> {
  const { stored, bid: before } = await ownedBid(ctx, tenderId, bidId);
  const tender = tenderOf(stored.doc);
  const patch = validated<Doc>(procedureOfStored(tender).bids.schemas.patch, bodyData(ctx));
  requireTenderingOpen(ctx, tender);
  if (patch.status !== undefined && patch.status !== before.status && patch.status !== 'pending') {
    throw apiError(403, `Can't update bid to (${patch.status}) status`, { name: 'bid' });
  }
  const stamp = formatKyiv(ctx.state.now);
  const { lotValues, value, ...rest } = patch;
  const after: Doc = { ...before, ...rest };
  if (value) after.value = { ...before.value, ...value };
  if (lotValues) after.lotValues = patchedLotValues(before.lotValues ?? [], lotValues, stamp);
  const bid = withValueDefaults(after, tender);
  if (bid.value?.amount !== before.value?.amount) bid.date = stamp;
  await runBidRules(bid, tender, contextOf(ctx, stored));
  await saveBids(
    ctx,
    stored,
    bidsOf(tender).map((b) => (b.id === bidId ? bid : b)),
    stored.doc.bidAccess,
  );
  return bid;
}

/** `DELETE /tenders/{id}/bids/{bid_id}` by the bid's owner while tendering lasts: the bid is withdrawn (removed). */
export async function deleteBid(ctx: Ctx, tenderId: string, bidId: string): Promise<Doc> {
  const { stored, bid } = await ownedBid(ctx, tenderId, bidId);
  requireTenderingOpen(ctx, stored.doc.data);
  const { [bidId]: _gone, ...bidAccess } = stored.doc.bidAccess ?? {};
  await saveBids(
    ctx,
    stored,
    bidsOf(tenderOf(stored.doc)).filter((b) => b.id !== bidId),
    bidAccess,
  );
  return bid;
}
