import t from 'tap';
import { startTestServer } from '../../fixtures/server';
import { LIFECYCLE_CASES as cases, runChronograph } from '../../fixtures/tenders';
import { decision, patchAward, signContract, tenderInQualification } from '../../fixtures/awards';

const DAY = 24 * 3600_000;

for (const [name, options] of cases) {
  const co = options.procedure === 'competitiveOrdering';

  t.test(`${name}: the winner's award is activated, its contract signed, the tender complete`, async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    const { tender, bids, data } = await tenderInQualification(server, options);
    for (const award of data.awards) {
      const res = await patchAward(server, tender, award.id, decision('active', true, co));
      t.equal(res.status, 200, `decided: ${res.status === 200 ? '' : res.text}`);
      t.match(res.body.data, { status: 'active', qualified: true, complaintPeriod: { startDate: String, endDate: String } });
    }
    let state = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
    t.equal(state.status, 'active.awarded');
    t.ok(state.awardPeriod.endDate, 'the award period ends when every award is decided');
    t.equal(state.contracts.length, data.awards.length, 'a contract for each active award');
    if (co) server.clock.set(new Date(server.clock.now().getTime() + 8 * DAY));
    for (const contract of state.contracts) {
      t.match(contract, {
        status: 'pending',
        awardID: String,
        contractID: /^UA-.*-a\d$/,
        value: { amount: 440, amountNet: 440 },
        suppliers: [{ name: 'Постачальник 2' }],
      });
      const own = await server.request('GET', `/api/2.5/contracts/${contract.id}`);
      t.match(own.body.data, { status: 'pending', tender_id: tender.id, awardID: contract.awardID, buyer: { name: String } });
      const signed = await signContract(server, tender, contract.id, bids[1], 'broker2');
      t.equal(signed.status, 200, `signed: ${signed.status === 200 ? '' : signed.text}`);
      t.match(signed.body.data, { status: 'active', dateSigned: String });
    }
    state = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
    t.equal(state.status, 'complete');
    t.same(
      (state.lots ?? []).map((l: any) => l.status),
      (state.lots ?? []).map(() => 'complete'),
    );
    t.ok(
      state.contracts.every((c: any) => c.status === 'active'),
      "the tender's copies follow the contracts",
    );
    t.notOk(state.next_check, 'nothing is left to check');
  });

  t.test(`${name}: both awards refused, the lots and the tender are unsuccessful after the stand-still`, async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    const { tender, bids, data } = await tenderInQualification(server, options);
    for (const award of data.awards) {
      const refused = await patchAward(server, tender, award.id, decision('unsuccessful', false, co));
      t.equal(refused.status, 200, `refused: ${refused.status === 200 ? '' : refused.text}`);
    }
    const next = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
    t.equal(next.awards.length, data.awards.length * 2, "the next bid's award for each lot");
    for (const award of next.awards.filter((a: any) => a.status === 'pending')) {
      t.equal(award.bid_id, bids[0].id, 'the second-best bid');
      t.equal((await patchAward(server, tender, award.id, decision('unsuccessful', false, co))).status, 200);
    }
    const waiting = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
    t.equal(waiting.status, 'active.awarded', 'no bid is left: awarding is over');
    t.ok(waiting.next_check, 'the end of the stand-still is due');
    server.clock.set(new Date(Date.parse(waiting.next_check) + 1000));
    await runChronograph(server, tender.id);
    const done = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
    t.equal(done.status, 'unsuccessful');
    t.same(
      (done.lots ?? []).map((l: any) => l.status),
      (done.lots ?? []).map(() => 'unsuccessful'),
    );
  });
}
