import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import type { Value } from '../../core/shapes';
import { statusOf, type TenderProcedure } from '../procedure';
import { activeLots, setTenderStatus } from '../tender-status';
import type { Award, Lot, Tender, TenderConfig, TenderOrganization } from '../tender.types';

/**
 * `add_next_award` and the steps it calls, as the spec-era reference's `TenderStateAwardingMixing`
 * (docs/tenders.md §Awards): awards are made in the order of `awardCriteria` lowestCost (the lowest value first,
 * the earlier bid first among equals), one at a time with `hasAwardingOrder`, all at once without it.
 */

/** An offer of a bid for the lot (or the tender): what an award is made of. */
interface Offer {
  id: string;
  value: Value;
  tenderers?: TenderOrganization[];
  date: string;
}

type Phased = Pick<TenderProcedure, 'phases'>;

const awardsOf = (t: Tender, lotId?: string): Award[] => (t.awards ?? []).filter((a) => a.lotID === lotId);

/** `prepare_bids_for_awarding`: active bids' offers for the lot (or the tender), in awarding order. */
export function prepareBidsForAwarding(t: Tender, lotId?: string): Offer[] {
  const offers: Offer[] = [];
  for (const bid of t.bids ?? []) {
    if (bid.status !== 'active') continue;
    // A bid saved has its id and date, and the value the bid rules require of it (bids/bid.rules.ts).
    if (!lotId) {
      offers.push({ id: bid.id, value: bid.value!, tenderers: bid.tenderers, date: bid.date! });
      continue;
    }
    const v = (bid.lotValues ?? []).find((lv) => lv.relatedLot === lotId && ['active', 'pending'].includes(lv.status ?? 'active'));
    if (v) offers.push({ id: bid.id, value: v.value!, tenderers: bid.tenderers, date: v.date });
  }
  return offers.sort((a, b) => a.value.amount - b.value.amount || Date.parse(a.date) - Date.parse(b.date));
}

/** `exclude_unsuccessful_awarded_bids`: a bid whose award was unsuccessful gets no other one for that lot. */
const excludeUnsuccessfulAwardedBids = (t: Tender, offers: Offer[], lotId?: string): Offer[] => {
  const refused = new Set(
    awardsOf(t, lotId)
      .filter((a) => a.status === 'unsuccessful')
      .map((a) => a.bid_id),
  );
  return offers.filter((o) => !refused.has(o.id));
};

/** `filter_bids_for_creating_new_awards` (without awarding order): all bids at first, then those of cancelled awards. */
function filterBidsForCreatingNewAwards(awards: Award[], offers: Offer[]): Offer[] {
  if (awards.length === 0) return offers;
  const live = new Set(awards.filter((a) => a.status !== 'cancelled').map((a) => a.bid_id));
  const cancelled = new Set(awards.filter((a) => a.status === 'cancelled' && !live.has(a.bid_id)).map((a) => a.bid_id));
  return offers.filter((o) => cancelled.has(o.id));
}

/** `tender_append_award`: a `pending` award of the offer, its suppliers the bid's tenderers. */
function tenderAppendAward(t: Tender, offer: Offer, now: Date, lotId?: string): void {
  t.awards = [
    ...(t.awards ?? []),
    {
      id: newId(),
      status: 'pending',
      date: formatKyiv(now),
      value: offer.value,
      suppliers: offer.tenderers,
      bid_id: offer.id,
      ...(lotId ? { lotID: lotId } : {}),
    },
  ];
}

/**
 * `recalculate_period_and_change_tender_status`: the tender stays in (or returns to) `active.qualification` while
 * an award waits for a decision, else it is `active.awarded` and the award period (opened by `addNextAward`) ends.
 */
function recalculatePeriodAndChangeTenderStatus(t: Tender, staysAtQualification: boolean, now: Date, procedure: Phased): void {
  const qualification = statusOf(procedure, 'qualification');
  const awarded = statusOf(procedure, 'awarded');
  if (staysAtQualification) {
    if (t.status !== qualification) {
      delete t.awardPeriod!.endDate;
      setTenderStatus(t, qualification, now);
    }
  } else if (t.status !== awarded) {
    t.awardPeriod!.endDate = formatKyiv(now);
    setTenderStatus(t, awarded, now);
  }
}

/** `add_next_award` with `hasAwardingOrder`: the next best bid of each lot without a pending or active award. */
function addNextAwardInOrder(t: Tender, now: Date, procedure: Phased): void {
  if (!t.lots?.length) {
    const awards = awardsOf(t);
    const last = awards.at(-1);
    if (!last || !['pending', 'active'].includes(last.status)) {
      const best = excludeUnsuccessfulAwardedBids(t, prepareBidsForAwarding(t), undefined)[0];
      if (best) tenderAppendAward(t, best, now);
    }
    recalculatePeriodAndChangeTenderStatus(t, t.awards?.at(-1)?.status === 'pending', now, procedure);
    return;
  }
  const statuses = new Set<string>();
  for (const lot of activeLots(t)) {
    const last = awardsOf(t, lot.id).at(-1);
    if (last && ['pending', 'active'].includes(last.status)) {
      statuses.add(last.status);
      continue;
    }
    const all = prepareBidsForAwarding(t, lot.id);
    if (all.length === 0) {
      lot.status = 'unsuccessful';
      statuses.add('unsuccessful');
      continue;
    }
    const best = excludeUnsuccessfulAwardedBids(t, all, lot.id)[0];
    if (best) tenderAppendAward(t, best, now, lot.id);
    statuses.add(best ? 'pending' : 'unsuccessful');
  }
  recalculatePeriodAndChangeTenderStatus(t, statuses.has('pending'), now, procedure);
}

/** `generate_awards_without_awarding_order`: every bid's award at once (and again for bids of cancelled awards). */
function generateAwardsWithoutAwardingOrder(t: Tender, now: Date, procedure: Phased): void {
  const lots: (Lot | undefined)[] = t.lots?.length ? activeLots(t) : [undefined];
  let staysAtQualification = false;
  for (const lot of lots) {
    const awards = awardsOf(t, lot?.id);
    const statuses = new Set(awards.map((a) => a.status));
    const all = prepareBidsForAwarding(t, lot?.id);
    if (lot && all.length === 0) lot.status = 'unsuccessful';
    if (lot || awards.length === 0 || statuses.has('cancelled')) {
      const fresh = filterBidsForCreatingNewAwards(awards, all);
      for (const offer of fresh) tenderAppendAward(t, offer, now, lot?.id);
      if (fresh.length) statuses.add('pending');
    }
    if ([...statuses].some((s) => s !== 'unsuccessful' && s !== 'cancelled') && !statuses.has('active')) staysAtQualification = true;
  }
  recalculatePeriodAndChangeTenderStatus(t, staysAtQualification, now, procedure);
}

/**
 * `add_next_award` (docs/tenders.md §Awards): opens the award period and makes the next awards; called at the end
 * of the auction (or of tendering without one) and whenever an award is decided.
 */
export function addNextAward(tender: Tender, now: Date, config: TenderConfig, procedure: Phased): void {
  tender.awardPeriod = { ...tender.awardPeriod };
  tender.awardPeriod.startDate ??= formatKyiv(now);
  if (config.hasAwardingOrder === false) generateAwardsWithoutAwardingOrder(tender, now, procedure);
  else addNextAwardInOrder(tender, now, procedure);
}
