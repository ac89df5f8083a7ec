import type { Doc } from '../../store/port';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { shouldStartAfter } from '../../time/tender-periods';
import type { TenderEvent } from './procedure';

const activeLots = (t: Doc): Doc[] => (t.lots ?? []).filter((l: Doc) => l.status === 'active');

/**
 * `auctionPeriod.shouldStartAfter` = tenderPeriod.endDate ceiled to midnight, per active lot (or on the tender
 * without lots), only with an auction and only from `active.tendering` on (spec era, docs/tenders.md §Auction period).
 */
export function planAuctions(t: Doc, config: Doc): void {
  if (!config.hasAuction) return;
  const after = formatKyiv(shouldStartAfter(parseIsoDate(t.tenderPeriod.endDate)!));
  const lots = activeLots(t);
  if (lots.length === 0) t.auctionPeriod = { ...t.auctionPeriod, shouldStartAfter: after };
  for (const lot of lots) lot.auctionPeriod = { ...lot.auctionPeriod, shouldStartAfter: after };
}

function moveTo(t: Doc, status: string, now: Date): void {
  t.status = status;
  t.date = formatKyiv(now);
}

/** `active.enquiries` ends at tenderPeriod.startDate: the tender is open for bids. */
export const enquiriesEnd = (t: Doc): TenderEvent[] =>
  t.status === 'active.enquiries'
    ? [{ due: t.tenderPeriod.startDate, apply: (tender, now, config) => (moveTo(tender, 'active.tendering', now), planAuctions(tender, config)) }]
    : [];

const bidsFor = (t: Doc, lotId?: string) =>
  (t.bids ?? []).filter(
    (b: Doc) =>
      ['active', 'pending'].includes(b.status) && (lotId === undefined || (b.lotValues ?? []).some((v: Doc) => v.relatedLot === lotId)),
  ).length;

/**
 * `check_bids_number` at tenderPeriod.endDate (docs/tenders.md §Tender events and next_check): a lot (or a tender without lots) with fewer
 * bids than `minBidsNumber` is unsuccessful, its auction period dropped; with every lot unsuccessful so is the
 * tender. Otherwise the tender moves to its auction (or straight to qualification without one).
 */
function endTendering(t: Doc, now: Date, config: Doc): void {
  const lots = activeLots(t);
  for (const lot of lots) {
    if (bidsFor(t, lot.id) < config.minBidsNumber) {
      lot.status = 'unsuccessful';
      delete lot.auctionPeriod;
    }
  }
  const failed = lots.length > 0 ? lots.every((l) => l.status === 'unsuccessful') : bidsFor(t) < config.minBidsNumber;
  if (failed) {
    moveTo(t, 'unsuccessful', now);
    delete t.auctionPeriod;
    return;
  }
  moveTo(t, config.hasAuction ? 'active.auction' : 'active.qualification', now);
}

export const tenderingEnds = (t: Doc): TenderEvent[] =>
  t.status === 'active.tendering' ? [{ due: t.tenderPeriod.endDate, apply: endTendering }] : [];

/** `next_check`: the earliest pending event, absent when there is none. */
export function nextCheckOf(events: TenderEvent[]): string | undefined {
  const dues = events.map((e) => e.due).sort((a, b) => Date.parse(a) - Date.parse(b));
  return dues[0];
}
