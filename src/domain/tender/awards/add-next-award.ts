import type { Doc } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { activeLots, isActiveBid, setTenderStatus } from '../tender-status';

/**
 * Minimal `add_next_award` until the awards module lands (its owner replaces this file): for each active lot (or
 * the tender) without a pending or active award, a `pending` award for the lowest remaining bid (`awardCriteria`
 * lowestCost), or the lot unsuccessful when none remains; the tender moves to `active.qualification` (or is
 * unsuccessful when every lot is).
 */
export function addNextAward(tender: Doc, now: Date, _config: Doc): void {
  const stamp = formatKyiv(now);
  const awards: Doc[] = (tender.awards = [...(tender.awards ?? [])]);
  const lots = tender.lots?.length ? activeLots(tender) : [undefined];
  for (const lot of lots) {
    const lotId: string | undefined = lot?.id;
    const ofLot = awards.filter((a) => a.lotID === lotId);
    if (ofLot.some((a) => ['pending', 'active'].includes(a.status))) continue;
    const tried = new Set(ofLot.map((a) => a.bid_id));
    const offers = (tender.bids ?? [])
      .filter((b: Doc) => isActiveBid(b) && !tried.has(b.id))
      .map((b: Doc) => ({
        bid: b,
        value: lotId ? (b.lotValues ?? []).find((v: Doc) => v.relatedLot === lotId && v.status !== 'unsuccessful')?.value : b.value,
      }))
      .filter((o: { value?: Doc }) => o.value)
      .sort(
        (a: { value: Doc; bid: Doc }, b: { value: Doc; bid: Doc }) =>
          a.value.amount - b.value.amount || Date.parse(a.bid.date) - Date.parse(b.bid.date),
      );
    const best = offers[0];
    if (!best) {
      if (lot) lot.status = 'unsuccessful';
      continue;
    }
    awards.push({
      id: newId(),
      bid_id: best.bid.id,
      status: 'pending',
      date: stamp,
      value: best.value,
      suppliers: best.bid.tenderers,
      ...(lotId ? { lotID: lotId } : {}),
    });
  }
  if (awards.length === 0) delete tender.awards;
  if (awards.some((a) => a.status === 'pending')) {
    tender.awardPeriod = { startDate: tender.awardPeriod?.startDate ?? stamp };
    if (tender.status !== 'active.qualification') setTenderStatus(tender, 'active.qualification', now);
  } else if (!tender.lots?.length || activeLots(tender).length === 0) {
    setTenderStatus(tender, 'unsuccessful', now);
  }
}
