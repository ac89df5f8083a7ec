import t from 'tap';
import type { ObjectDoc } from '../../../../src/domain/core/objects';
import { eventsOf } from '../../../../src/domain/tender/procedure';
import { belowThreshold } from '../../../../src/domain/tender/procedures/below-threshold';
import { tenderCheck } from '../../../../src/domain/tender/tender.check';
import { withNextCheck } from '../../../../src/domain/tender/tender-aggregate';
import type { Tender } from '../../../../src/domain/tender/tender.types';
import type { StoredDoc, StoreSession, Stored } from '../../../../src/store/port';
import { ManualClock } from '../../../../src/time/clock';
import { at } from '../../time/fixtures';

/**
 * The tender's events on fixtures, without a server: each event's due time, what it applies, and the check that runs
 * them on an injected clock (docs/tenders.md §Tender events and next_check, §End of tendering, §Awards).
 */

const TENDERING_STARTS = '2027-03-10T10:00:00+02:00';
const TENDERING_ENDS = '2027-03-20T10:00:00+02:00';
const STAND_STILL_ENDS = '2027-04-05T00:00:00+03:00';
const CONFIG = { hasAuction: true, hasAwardingOrder: true, minBidsNumber: 1 };

const aBid = (id: string, amount: number, status = 'pending') => ({
  id,
  status,
  date: '2027-03-11T10:00:00+02:00',
  value: { amount, currency: 'UAH' },
  tenderers: [{ name: id }],
});

/** A tender with the members its events read (the rest left out). */
function aTender(data: StoredDoc = {}): Tender {
  return {
    id: 't'.repeat(32),
    procurementMethodType: 'belowThreshold',
    status: 'active.enquiries',
    enquiryPeriod: { startDate: '2027-03-01T10:00:00+02:00', endDate: TENDERING_STARTS },
    tenderPeriod: { startDate: TENDERING_STARTS, endDate: TENDERING_ENDS },
    date: '2027-03-01T10:00:00+02:00',
    dateModified: '2027-03-01T10:00:00+02:00',
    ...data,
  } as unknown as Tender;
}

const events = eventsOf(belowThreshold);
const stored = (doc: ObjectDoc): Stored => ({ kind: 'tenders', id: doc.data.id, rev: 2, seq: 1, doc });
const session = {} as StoreSession;

t.test('a draft tender has no events and no next_check', async (t) => {
  const tender = aTender({ status: 'draft', next_check: TENDERING_STARTS });
  t.same(events(tender), []);
  t.notOk('next_check' in withNextCheck(belowThreshold, tender));
});

t.test('active.enquiries: one event at tenderPeriod.startDate, its next_check', async (t) => {
  t.same(
    events(aTender()).map((e) => e.due),
    [TENDERING_STARTS],
  );
  t.equal(withNextCheck(belowThreshold, aTender()).next_check, TENDERING_STARTS);
});

t.test('the end of enquiries opens tendering, dated now, with the auction planned after the ceiled tendering end', async (t) => {
  const tender = aTender();
  const now = at(TENDERING_STARTS);
  events(tender)[0].apply(tender, now, CONFIG);
  t.match(tender, { status: 'active.tendering', date: TENDERING_STARTS, auctionPeriod: { shouldStartAfter: '2027-03-21T00:00:00+02:00' } });
});

t.test('active.tendering: one event at tenderPeriod.endDate', async (t) => {
  t.same(
    events(aTender({ status: 'active.tendering' })).map((e) => e.due),
    [TENDERING_ENDS],
  );
});

t.test('the end of tendering drops draft bids, activates the rest and goes to the auction', async (t) => {
  const tender = aTender({ status: 'active.tendering', bids: [aBid('b1', 100), aBid('b2', 90), aBid('b3', 80, 'draft')] });
  events(tender)[0].apply(tender, at(TENDERING_ENDS), CONFIG);
  t.equal(tender.status, 'active.auction');
  t.same(
    (tender.bids as StoredDoc[]).map((b) => [b.id, b.status]),
    [
      ['b1', 'active'],
      ['b2', 'active'],
    ],
  );
  t.same(events(tender), [], 'active.auction waits for the auction module: no event');
});

t.test('the end of tendering with fewer bids than minBidsNumber makes the tender and its bids unsuccessful', async (t) => {
  const tender = aTender({ status: 'active.tendering', bids: [aBid('b1', 100)] });
  events(tender)[0].apply(tender, at(TENDERING_ENDS), { ...CONFIG, minBidsNumber: 2 });
  t.equal(tender.status, 'unsuccessful');
  t.equal((tender.bids as StoredDoc[])[0].status, 'unsuccessful');
});

t.test('the end of tendering with one bid and minBidsNumber 1 skips the auction: a pending award', async (t) => {
  const tender = aTender({ status: 'active.tendering', bids: [aBid('b1', 100)] });
  events(tender)[0].apply(tender, at(TENDERING_ENDS), CONFIG);
  t.equal(tender.status, 'active.qualification');
  t.match(tender.awards, [{ status: 'pending', bid_id: 'b1' }]);
});

const lot = { id: 'l1', status: 'active' };
const refused = { id: 'aw1', lotID: 'l1', status: 'unsuccessful', complaintPeriod: { endDate: STAND_STILL_ENDS } };

t.test('a lot whose awards all failed has an event at the end of their stand-still; it fails the lot and the tender', async (t) => {
  const tender = aTender({ status: 'active.qualification', lots: [lot], awards: [refused] });
  t.same(
    events(tender).map((e) => e.due),
    [STAND_STILL_ENDS],
  );
  events(tender)[0].apply(tender, at(STAND_STILL_ENDS), CONFIG);
  t.equal((tender.lots as StoredDoc[])[0].status, 'unsuccessful');
  t.equal(tender.status, 'unsuccessful');
});

t.test('a lot with a pending award has no event', async (t) => {
  const tender = aTender({ status: 'active.qualification', lots: [lot], awards: [refused, { id: 'aw2', lotID: 'l1', status: 'pending' }] });
  t.same(events(tender), []);
});

t.test('the check before tenderPeriod.startDate changes nothing', async (t) => {
  const clock = new ManualClock(at('2027-03-10T09:59:59+02:00'));
  t.same(await tenderCheck(session, stored({ data: aTender(), config: CONFIG }), clock.now()), []);
});

t.test('one late run passes every due event in order: tendering opens, then ends without bids', async (t) => {
  const clock = new ManualClock(at(TENDERING_STARTS));
  clock.set(at('2027-03-25T00:00:00+02:00'));
  const [change, ...rest] = await tenderCheck(session, stored({ data: aTender(), config: CONFIG }), clock.now());
  t.same(rest, []);
  const data = (change.doc as ObjectDoc).data;
  t.match(data, { status: 'unsuccessful', date: '2027-03-25T00:00:00+02:00', dateModified: '2027-03-25T00:00:00+02:00' });
  t.notOk('next_check' in data);
});

t.test('a run at the end of enquiries sets next_check to the end of tendering', async (t) => {
  const clock = new ManualClock(at(TENDERING_STARTS));
  const [change] = await tenderCheck(session, stored({ data: aTender(), config: CONFIG }), clock.now());
  t.match((change.doc as ObjectDoc).data, { status: 'active.tendering', next_check: TENDERING_ENDS });
});
