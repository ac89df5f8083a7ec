import t from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aComplaint, anObjection, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';
import { aLot, aTender, anItem, belowThresholdConfig, createTender, placeBid, runChronograph, type Created } from '../../fixtures/tenders';

/**
 * Tender complaints on aboveThreshold, whose config allows them and whose tender has a complaint period
 * (docs/tenders.md §Complaints, §aboveThreshold): an unpaid draft expires at that period's end; a paid one holds
 * tendering past its end until the review body declines it.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const REVIEW = { reviewDate: '2026-10-10T00:00:00+03:00', reviewPlace: 'Place of review' };
const read = async (tender: Created) => (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;

/** An aboveThreshold tender with one lot, tendering from now to 21 October (the default 15 full days), activated. */
async function openTender(): Promise<Created> {
  const lotId = 'e'.repeat(32);
  const { enquiryPeriod: _server, ...data } = aTender({ lots: [aLot({ id: lotId })], items: [anItem({ relatedLot: lotId })] });
  const flags = { hasTenderComplaints: true, hasAwardComplaints: true, hasCancellationComplaints: true };
  const draft = await createTender(
    server,
    { ...data, procurementMethodType: 'aboveThreshold', tenderPeriod: { endDate: '2026-10-21T00:00:00+03:00' } },
    belowThresholdConfig(flags),
  );
  const res = await server.request('PATCH', `/api/2.5/tenders/${draft.id}`, {
    key: 'broker',
    token: draft.token,
    body: { data: { status: 'active.tendering' } },
  });
  if (res.status !== 200) throw new Error(res.text);
  return { ...draft, data: res.body.data };
}

t.test('aboveThreshold: an unpaid draft expires at the complaint period end; none is made after it', async (t) => {
  const tender = await openTender();
  const { endDate } = tender.data.complaintPeriod;
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  t.same(made.body.data.value, { amount: 2000, currency: 'UAH' });
  t.equal((await read(tender)).next_check, endDate, "next_check is the draft's expiry, before the tendering end");
  server.clock.set(new Date(Date.parse(endDate) + 1000));
  await runChronograph(server, tender.id);
  t.match((await server.request('GET', `${complaintsPath(tender)}/${made.body.data.id}`)).body.data, {
    status: 'mistaken',
    rejectReason: 'complaintPeriodEnded',
  });
  t.equal((await read(tender)).next_check, tender.data.tenderPeriod.endDate, 'then the tendering end');
  const late = await server.request('POST', complaintsPath(tender), {
    key: 'broker1',
    body: { data: aComplaint([anObjection('tender', tender.id)]) },
  });
  t.same(
    { status: late.status, body: late.body },
    error(403, 'body', 'data', 'Can submit complaint not later than complaintPeriod end date'),
  );
});

t.test('aboveThreshold: a paid complaint holds tendering past its end; declined, the tender moves on', async (t) => {
  const tender = await openTender();
  await placeBid(server, tender, 450, 1, 'broker1');
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]), 'broker2');
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  t.equal((await patchComplaint(server, one, { status: 'pending' }, 'bot')).status, 200);
  server.clock.set(new Date(Date.parse(tender.data.tenderPeriod.endDate) + 3600_000));
  await runChronograph(server, tender.id);
  t.equal((await read(tender)).status, 'active.tendering', 'held');
  t.equal((await patchComplaint(server, one, { status: 'accepted', ...REVIEW }, 'reviewer')).status, 200);
  t.equal((await patchComplaint(server, one, { status: 'declined' }, 'reviewer')).status, 200);
  await runChronograph(server, tender.id);
  t.not((await read(tender)).status, 'active.tendering', 'tendering ends');
});
