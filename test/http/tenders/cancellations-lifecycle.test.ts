import t from 'tap';
import { insertOf } from '../../../src/domain/save-rules';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCancellation,
  activeTender,
  cancelBy,
  getTender,
  patchCancellation,
  plant,
  postCancellation,
  uploadCancellationDocument,
  type Procedure,
} from '../../fixtures/cancellations';
import { aBid, aContract, placeBid, tenderInTendering } from '../../fixtures/tenders';
import { decision, patchAward, signContract, tenderInQualification } from '../../fixtures/awards';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const PROCEDURES: Procedure[] = ['belowThreshold', 'competitiveOrdering'];
const refused = (status: number, description: unknown) => error(status, 'body', 'data', description);
const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

const runChronograph = (id: string) =>
  server.request('PATCH', `/api/2.5/tenders/${id}/chronograph`, { key: 'chronograph', body: { data: { id } } });

for (const procedure of PROCEDURES) {
  t.test(`${procedure} without lots: a cancellation of the tender ends it → cancelled`, async (t) => {
    const tender = await activeTender(server, procedure, 0);
    const res = await cancelBy(server, tender, procedure);
    t.equal(res.status, 200, res.text);
    t.equal(res.body.data.status, 'active');
    t.equal(res.body.data.cancellationOf, 'tender');
    const after = await getTender(server, tender);
    t.equal(after.status, 'cancelled');
    t.notOk(after.auctionPeriod);
    t.notOk(after.next_check);
  });
}

t.test('belowThreshold with two lots: one lot cancelled, the tender goes on with the other; both cancelled → cancelled', async (t) => {
  const tender = await activeTender(server, 'belowThreshold', 2);
  const [lot1, lot2] = tender.data.lots;
  server.clock.advance(60_000);
  const first = await cancelBy(server, tender, 'belowThreshold', { relatedLot: lot1.id });
  t.equal(first.status, 200, first.text);
  t.match(first.body.data, { status: 'active', cancellationOf: 'lot', relatedLot: lot1.id });
  let after = await getTender(server, tender);
  t.equal(after.status, 'active.enquiries');
  t.same(
    after.lots.map((l: any) => l.status),
    ['cancelled', 'active'],
  );
  t.equal(after.lots[0].date, '2026-10-05T12:01:00+03:00', 'the lot is dated by its cancellation');
  t.equal(after.next_check, after.tenderPeriod.startDate, 'its events still run');

  server.clock.set(new Date(Date.parse(after.tenderPeriod.startDate) + 60_000));
  t.equal((await runChronograph(tender.id)).status, 200);
  after = await getTender(server, tender);
  t.equal(after.status, 'active.tendering');
  t.notOk(after.lots[0].auctionPeriod, 'no auction for the cancelled lot');
  t.ok(after.lots[1].auctionPeriod.shouldStartAfter);
  t.same(
    reply(await postCancellation(server, tender, aCancellation({ relatedLot: lot1.id }))),
    refused(403, 'Can perform cancellation only in active lot status'),
  );

  const second = await cancelBy(server, tender, 'belowThreshold', { relatedLot: lot2.id });
  t.equal(second.status, 200, second.text);
  after = await getTender(server, tender);
  t.same(
    after.lots.map((l: any) => l.status),
    ['cancelled', 'cancelled'],
  );
  t.equal(after.status, 'cancelled');
  t.notOk(after.lots[1].auctionPeriod);
  t.equal(after.cancellations.length, 2);
});

t.test(
  'competitiveOrdering with its lot: pending makes the cancellation active at once, dated; the lot and the tender are cancelled',
  async (t) => {
    const tender = await activeTender(server, 'competitiveOrdering', 1);
    const lot = tender.data.lots[0];
    const created = await postCancellation(server, tender, aCancellation({ relatedLot: lot.id, reasonType: 'unFixable' }));
    await uploadCancellationDocument(server, tender, created.body.data.id);
    server.clock.advance(60_000);
    const pending = await patchCancellation(server, tender, created.body.data.id, { status: 'pending' });
    t.equal(pending.status, 200, pending.text);
    t.match(pending.body.data, { status: 'active', date: '2026-10-05T12:01:00+03:00', reasonType: 'unFixable' });
    const after = await getTender(server, tender);
    t.same(
      after.lots.map((l: any) => l.status),
      ['cancelled'],
    );
    t.equal(after.status, 'cancelled');
  },
);

t.test('competitiveOrdering accepts its own reason types', async (t) => {
  const tender = await activeTender(server, 'competitiveOrdering', 1);
  t.equal((await postCancellation(server, tender, aCancellation({ reasonType: 'forceMajeure' }))).status, 201);
  t.equal((await postCancellation(server, tender, aCancellation({ reasonType: 'noOffer' }))).status, 201);
  t.same(
    reply(await postCancellation(server, tender, aCancellation({ reasonType: 'cancelled' }))),
    error(422, 'body', 'reasonType', ["Value must be one of ['noDemand', 'unFixable', 'forceMajeure', 'expensesCut', 'noOffer']"]),
  );
});

t.test('a lot cancelled in tendering takes its values out of bids; a bid left without one is invalid', async (t) => {
  const tender = await tenderInTendering(server, { lots: 2 });
  const [lot1, lot2] = tender.data.lots;
  const onlyLot1 = await server.request('POST', `/api/2.5/tenders/${tender.id}/bids`, {
    key: 'broker1',
    body: { data: aBid(tender, 450, 1, { status: 'pending', lotValues: [{ value: { amount: 450 }, relatedLot: lot1.id }] }) },
  });
  const both = await placeBid(server, tender, 440, 2, 'broker2');
  const res = await cancelBy(server, tender, 'belowThreshold', { relatedLot: lot1.id });
  t.equal(res.status, 200, res.text);
  const read = (id: string, key: string, token: string) =>
    server.request('GET', `/api/2.5/tenders/${tender.id}/bids/${id}`, { key, token });
  const first = (await read(onlyLot1.body.data.id, 'broker1', onlyLot1.body.access.token)).body.data;
  t.equal(first.status, 'invalid');
  t.notOk(first.lotValues);
  const second = (await read(both.id, 'broker2', both.token)).body.data;
  t.equal(second.status, 'pending');
  t.same(
    second.lotValues.map((v: any) => v.relatedLot),
    [lot2.id],
  );
  t.notOk((await getTender(server, tender)).bids, 'bids stay private while tendering lasts');
});

t.test('a tender cancelled in tendering drops its bids', async (t) => {
  const tender = await tenderInTendering(server, { lots: 1 });
  await placeBid(server, tender, 450, 1, 'broker1');
  t.equal((await cancelBy(server, tender, 'belowThreshold')).status, 200);
  const after = await getTender(server, tender);
  t.equal(after.status, 'cancelled');
  t.notOk(after.bids);
  t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/bids`)).body.data, []);
  const stored = (await server.store.session().get('tenders', tender.id))!.doc as any;
  t.notOk(stored.sealedBids, 'nothing kept aside');
});

/** Two lots in `active.awarded`: lot 1's award has a pending contract (also in the contracting module), lot 2 is complete. */
async function awardedTender() {
  const tender = await activeTender(server, 'belowThreshold', 2);
  const [lot1, lot2] = tender.data.lots;
  const contractId = 'c'.repeat(32);
  await server.store
    .session()
    .commit([
      insertOf(
        'contracts',
        { data: { ...aContract(tender.id), id: contractId, status: 'pending', owner: 'broker' }, config: { restricted: false } },
        ['documents'],
      ),
    ]);
  await plant(server, tender.id, (d) => {
    d.status = 'active.awarded';
    d.lots[1].status = 'complete';
    d.awards = [
      { id: 'a'.repeat(32), lotID: lot1.id, status: 'active' },
      { id: 'b'.repeat(32), lotID: lot2.id, status: 'active' },
    ];
    d.contracts = [
      { id: contractId, awardID: 'a'.repeat(32), status: 'pending' },
      { id: 'd'.repeat(32), awardID: 'b'.repeat(32), status: 'active' },
    ];
  });
  return { tender, lot1, contractId };
}

t.test(
  'a lot cancelled after its award: its pending contract is cancelled here and in the contracting module; the other lot complete → complete',
  async (t) => {
    const { tender, lot1, contractId } = await awardedTender();
    const res = await cancelBy(server, tender, 'belowThreshold', { relatedLot: lot1.id });
    t.equal(res.status, 200, res.text);
    const after = await getTender(server, tender);
    t.same(
      after.contracts.map((c: any) => c.status),
      ['cancelled', 'active'],
    );
    t.equal(after.status, 'complete');
    const contract = await server.request('GET', `/api/2.5/contracts/${contractId}`);
    t.equal(contract.body.data.status, 'cancelled');
  },
);

t.test('competitiveOrdering: no cancellation while every award of the lot is unsuccessful → 403', async (t) => {
  const tender = await activeTender(server, 'competitiveOrdering', 1);
  const lot = tender.data.lots[0];
  await plant(server, tender.id, (d) => {
    d.status = 'active.qualification';
    d.awards = [{ id: 'a'.repeat(32), lotID: lot.id, status: 'unsuccessful' }];
  });
  const text = "Can't perform cancellation if all awards are unsuccessful";
  t.same(reply(await postCancellation(server, tender, aCancellation({ relatedLot: lot.id }))), refused(403, text));
  t.same(reply(await postCancellation(server, tender, aCancellation())), refused(403, text), 'nor of the tender with that lot active');
  await plant(server, tender.id, (d) => d.awards.push({ id: 'b'.repeat(32), lotID: lot.id, status: 'pending' }));
  t.equal((await postCancellation(server, tender, aCancellation({ relatedLot: lot.id }))).status, 201);
});

t.test(
  'competitiveOrdering: no cancellation while an award is in its complaint period → 403 "Cancellation can\'t be added|updated …"',
  async (t) => {
    const tender = await activeTender(server, 'competitiveOrdering', 1);
    const lot = tender.data.lots[0];
    const draft = (await postCancellation(server, tender, aCancellation())).body.data;
    await plant(server, tender.id, (d) => {
      d.status = 'active.qualification';
      d.awards = [
        {
          id: 'a'.repeat(32),
          lotID: lot.id,
          status: 'active',
          complaintPeriod: { startDate: '2026-10-05T11:00:00+03:00', endDate: '2026-10-06T11:00:00+03:00' },
        },
      ];
    });
    t.same(
      reply(await postCancellation(server, tender, aCancellation({ relatedLot: lot.id }))),
      refused(403, "Cancellation can't be added when exists active complaint period"),
    );
    t.same(
      reply(await patchCancellation(server, tender, draft.id, { reasonType: 'unFixable' })),
      refused(403, "Cancellation can't be updated when exists active complaint period"),
    );
    server.clock.set(new Date('2026-10-06T12:00:00+03:00'));
    t.equal((await postCancellation(server, tender, aCancellation({ relatedLot: lot.id }))).status, 201, 'allowed once it ended');
  },
);

t.test('belowThreshold has no complaint-period check', async (t) => {
  const tender = await activeTender(server, 'belowThreshold', 1);
  await plant(server, tender.id, (d) => {
    d.status = 'active.qualification';
    d.awards = [
      {
        id: 'a'.repeat(32),
        lotID: d.lots[0].id,
        status: 'active',
        complaintPeriod: { startDate: '2026-10-05T11:00:00+03:00', endDate: '2026-10-06T11:00:00+03:00' },
      },
    ];
  });
  t.equal((await postCancellation(server, tender, aCancellation())).status, 201);
});

t.test(
  'belowThreshold in qualification: a lot cancelled with its award pending, the other lot awarded and signed → complete',
  async (t) => {
    const { tender, bids, data } = await tenderInQualification(server, { lots: 2 });
    const [lot1, lot2] = data.lots;
    const award1 = data.awards.find((a: any) => a.lotID === lot1.id);
    const award2 = data.awards.find((a: any) => a.lotID === lot2.id);
    const res = await cancelBy(server, tender, 'belowThreshold', { relatedLot: lot1.id });
    t.equal(res.status, 200, res.text);
    let state = await getTender(server, tender);
    t.equal(state.status, 'active.qualification', 'the tender goes on with its other lot');
    t.same(
      state.lots.map((l: any) => l.status),
      ['cancelled', 'active'],
    );
    t.same(
      reply(await patchAward(server, tender, award1.id, decision('active', true, false))),
      refused(403, 'Can update award only in active lot status'),
      "the cancelled lot's award is no longer decided",
    );
    t.equal((await patchAward(server, tender, award2.id, decision('active', true, false))).status, 200);
    state = await getTender(server, tender);
    const contract = state.contracts.find((c: any) => c.awardID === award2.id);
    t.equal((await signContract(server, tender, contract.id, bids[1], 'broker2')).status, 200);
    state = await getTender(server, tender);
    t.same(
      state.lots.map((l: any) => l.status),
      ['cancelled', 'complete'],
    );
    t.equal(state.status, 'complete');
  },
);

t.test(
  'belowThreshold: a lot cancelled after its award is active cancels its pending contract, also in the contracting module',
  async (t) => {
    const { tender, data } = await tenderInQualification(server, { lots: 2 });
    const [lot1] = data.lots;
    const award1 = data.awards.find((a: any) => a.lotID === lot1.id);
    t.equal((await patchAward(server, tender, award1.id, decision('active', true, false))).status, 200);
    const contract = (await getTender(server, tender)).contracts.find((c: any) => c.awardID === award1.id);
    t.equal(contract.status, 'pending');
    t.equal((await cancelBy(server, tender, 'belowThreshold', { relatedLot: lot1.id })).status, 200);
    const state = await getTender(server, tender);
    t.equal(state.contracts.find((c: any) => c.id === contract.id).status, 'cancelled');
    t.equal((await server.request('GET', `/api/2.5/contracts/${contract.id}`)).body.data.status, 'cancelled');
    t.equal(state.status, 'active.qualification', 'lot 2 is still being awarded');
  },
);

t.test('competitiveOrdering in qualification: no cancellation during an award stand-still, nor when every award failed', async (t) => {
  const { tender, data } = await tenderInQualification(server, { procedure: 'competitiveOrdering', lots: 1 });
  const [award] = data.awards;
  t.equal((await patchAward(server, tender, award.id, decision('unsuccessful', false, true))).status, 200);
  server.clock.advance(60_000);
  t.same(
    reply(await postCancellation(server, tender, aCancellation())),
    refused(403, "Cancellation can't be added when exists active complaint period"),
    'the refused award stands still',
  );
  const next = (await getTender(server, tender)).awards.find((a: any) => a.status === 'pending');
  t.equal((await patchAward(server, tender, next.id, decision('unsuccessful', false, true))).status, 200);
  const { next_check: due } = await getTender(server, tender);
  server.clock.set(new Date(Date.parse(due) + 60_000));
  t.same(
    reply(await postCancellation(server, tender, aCancellation())),
    refused(403, "Can't perform cancellation if all awards are unsuccessful"),
    'after the stand-still, before the chronograph ends the lot',
  );
});

t.test('belowThreshold: pending also takes effect at once (no cancellation complaints), dated now', async (t) => {
  const tender = await activeTender(server, 'belowThreshold', 1);
  server.clock.advance(60_000);
  const res = await cancelBy(server, tender, 'competitiveOrdering');
  t.match(res.body.data, { status: 'active', date: '2026-10-05T12:01:00+03:00' });
  t.equal((await getTender(server, tender)).status, 'cancelled');
});

t.test('a tender cancelled once awarded: its pending contract is cancelled in both places, the awards stay', async (t) => {
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  const [award] = data.awards;
  t.equal((await patchAward(server, tender, award.id, decision('active', true, false))).status, 200);
  t.equal((await getTender(server, tender)).status, 'active.awarded');
  t.equal((await cancelBy(server, tender, 'belowThreshold')).status, 200);
  const state = await getTender(server, tender);
  t.equal(state.status, 'cancelled');
  t.same(
    state.contracts.map((c: any) => c.status),
    ['cancelled'],
  );
  t.equal((await server.request('GET', `/api/2.5/contracts/${state.contracts[0].id}`)).body.data.status, 'cancelled');
  t.equal(state.awards[0].status, 'active');
  t.same(
    reply(await patchAward(server, tender, award.id, { status: 'cancelled' })),
    refused(403, "Can't update award in current (cancelled) tender status"),
  );
});
