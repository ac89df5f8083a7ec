import t, { type Test } from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCancellation,
  getTender,
  patchCancellation,
  plant,
  postCancellation,
  uploadCancellationDocument,
} from '../../fixtures/cancellations';
import { aComplaint, anObjection, complainableTender, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';
import { decision, patchAward, signContract, tenderInQualification } from '../../fixtures/awards';
import { CO_TENDERING_END, runChronograph } from '../../fixtures/tenders';
import { updateOf } from '../../../src/domain/save-rules';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const REVIEW = { reviewDate: '2026-10-10T00:00:00+03:00', reviewPlace: 'Place of review' };
const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });
const at = (iso: string, ms = 0) => server.clock.set(new Date(Date.parse(iso) + ms));

/** Pays and accepts a complaint, then declines it: each step must answer 200. */
async function pay(t: Test, one: string) {
  t.equal((await patchComplaint(server, one, { status: 'pending' }, 'bot')).status, 200, 'paid');
}
async function acceptAndDecline(t: Test, one: string) {
  t.equal((await patchComplaint(server, one, { status: 'accepted', ...REVIEW }, 'reviewer')).status, 200, 'accepted');
  t.equal((await patchComplaint(server, one, { status: 'declined' }, 'reviewer')).status, 200, 'declined');
}

t.test('an unpaid draft becomes mistaken when its complaint period ends (next_check, chronograph)', async (t) => {
  const tender = await complainableTender(server);
  const end = '2026-10-08T00:00:00+03:00';
  await plant(server, tender.id, (d) => (d.complaintPeriod = { startDate: d.tenderPeriod.startDate, endDate: end }));
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  t.equal((await getTender(server, tender)).next_check, end, "next_check is the draft's expiry");
  at(end, 1000);
  await runChronograph(server, tender.id);
  const one = await server.request('GET', `${complaintsPath(tender)}/${made.body.data.id}`);
  t.match(one.body.data, { status: 'mistaken', rejectReason: 'complaintPeriodEnded' });
  t.same(
    reply(
      await server.request('POST', complaintsPath(tender), {
        key: 'broker1',
        body: { data: aComplaint([anObjection('tender', tender.id)]) },
      }),
    ),
    error(403, 'body', 'data', 'Can submit complaint not later than complaintPeriod end date'),
    'no complaint after the period',
  );
});

t.test('a pending tender complaint holds tendering; declined, the tender moves on', async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  await pay(t, one);
  t.notOk((await getTender(server, tender)).next_check, 'nothing planned while the complaint holds the tender');
  server.clock.set(new Date(CO_TENDERING_END.getTime() + 60_000));
  await runChronograph(server, tender.id);
  t.equal((await getTender(server, tender)).status, 'active.tendering', 'held past the tendering end');
  await acceptAndDecline(t, one);
  t.ok((await getTender(server, tender)).next_check, 'the tendering end is planned again');
  await runChronograph(server, tender.id);
  t.not((await getTender(server, tender)).status, 'active.tendering', 'tendering ends once the complaint is declined');
});

t.test("an award's complaint holds its contract beyond the stand-still", async (t) => {
  const { tender, bids } = await tenderInQualification(server, { procedure: 'competitiveOrdering', lots: 1 });
  const session = server.store.session();
  const stored = (await session.get('tenders', tender.id))!;
  const doc = structuredClone(stored.doc) as any;
  doc.config = { ...doc.config, hasAwardComplaints: true };
  await session.commit([updateOf(stored, doc, [])]);
  const award = doc.data.awards[0];
  t.equal((await patchAward(server, tender, award.id, decision('active', true, true))).status, 200);
  const host = `/awards/${award.id}`;
  const loser = bids.find((b) => b.id !== award.bid_id)!;
  const made = await postComplaint(
    server,
    complaintsPath(tender, host),
    aComplaint([anObjection('award', award.id)]),
    'broker1',
    loser.token,
  );
  t.match(made.body.data, { status: 'draft', value: { amount: 3000, currency: 'UAH' } }, 'the enhanced fee after tendering');
  const one = `${complaintsPath(tender, host)}/${made.body.data.id}`;
  await pay(t, one);
  const standStillEnd = (await getTender(server, tender)).awards[0].complaintPeriod.endDate;
  at(standStillEnd, 60_000);
  const contract = (await getTender(server, tender)).contracts[0];
  const winner = bids.find((b) => b.id === award.bid_id)!;
  const winnerKey = winner === bids[0] ? 'broker1' : 'broker2';
  t.same(
    reply(
      await signContract(server, tender, contract.id, winner, winnerKey, {
        value: { ...contract.value, amountNet: contract.value.amount },
      }),
    ),
    error(403, 'body', 'data', "Can't sign contract before reviewing all complaints"),
  );
  await acceptAndDecline(t, one);
  const signed = await signContract(server, tender, contract.id, winner, winnerKey, {
    value: { ...contract.value, amountNet: contract.value.amount },
  });
  t.equal(signed.status, 200, signed.text);
});

t.test('a cancellation with complaints waits 10 days, held by its complaint; declined, it takes effect', async (t) => {
  const tender = await complainableTender(server);
  const cancellation = (await postCancellation(server, tender, aCancellation())).body.data;
  await uploadCancellationDocument(server, tender, cancellation.id);
  const pending = await patchCancellation(server, tender, cancellation.id, { status: 'pending' });
  t.equal(pending.status, 200, pending.text);
  t.match(pending.body.data, { status: 'pending', complaintPeriod: { startDate: String, endDate: String } });
  const period = pending.body.data.complaintPeriod;
  t.equal((await getTender(server, tender)).next_check, period.endDate, 'planned at its complaint period end');
  const host = `/cancellations/${cancellation.id}`;
  const made = await postComplaint(server, complaintsPath(tender, host), aComplaint([anObjection('cancellation', cancellation.id)]));
  const one = `${complaintsPath(tender, host)}/${made.body.data.id}`;
  await pay(t, one);
  at(period.endDate, 60_000);
  await runChronograph(server, tender.id);
  const held = await getTender(server, tender);
  t.equal(held.cancellations[0].status, 'pending', 'held by its complaint');
  t.equal(held.status, 'active.tendering', 'and so is the tender');
  await acceptAndDecline(t, one);
  await runChronograph(server, tender.id);
  const done = await getTender(server, tender);
  t.equal(done.cancellations[0].status, 'active');
  t.equal(done.status, 'cancelled');
});

t.test('with cancellation complaints a cancellation does not take effect at once', async (t) => {
  const tender = await complainableTender(server);
  const cancellation = (await postCancellation(server, tender, aCancellation())).body.data;
  await uploadCancellationDocument(server, tender, cancellation.id);
  t.same(
    reply(await patchCancellation(server, tender, cancellation.id, { status: 'active' })),
    error(422, 'body', 'status', ["Value must be one of ['draft', 'pending', 'unsuccessful']."]),
  );
});
