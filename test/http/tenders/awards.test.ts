import t from 'tap';
import { type ObjectDoc } from '../../../src/domain/core/objects';
import { updateOf } from '../../../src/domain/save-rules';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { runChronograph } from '../../fixtures/tenders';
import { decision, patchAward, signContract, tenderInQualification } from '../../fixtures/awards';
import { uploadDocument } from '../../fixtures/frameworks';

/** A refused request leaves the tender as it was. */
async function refused(t: any, server: TestServer, tenderId: string, send: () => Promise<any>, expected: unknown) {
  const before = (await server.request('GET', `/api/2.5/tenders/${tenderId}`)).body;
  const res = await send();
  t.match({ status: res.status, body: res.body }, expected);
  t.same((await server.request('GET', `/api/2.5/tenders/${tenderId}`)).body, before, 'the tender is unchanged');
}

t.test('awards are listed and read; an unknown award is 404 award_id', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  const list = await server.request('GET', `/api/2.5/tenders/${tender.id}/awards`);
  t.same(list.body.data, data.awards);
  const one = await server.request('GET', `/api/2.5/tenders/${tender.id}/awards/${data.awards[0].id}`);
  t.same(one.body.data, data.awards[0]);
  const unknown = await server.request('GET', `/api/2.5/tenders/${tender.id}/awards/${'f'.repeat(32)}`);
  t.match({ status: unknown.status, body: unknown.body }, errorReply(404, 'url', 'award_id', 'Not Found'));
  t.equal(data.awardPeriod.startDate, data.awards[0].date, 'the award period starts with the first award');
});

t.test('belowThreshold decisions: every refusal with its text, the tender unchanged', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  const award = data.awards[0];
  const path = `/api/2.5/tenders/${tender.id}/awards/${award.id}`;
  await refused(
    t,
    server,
    tender.id,
    () => server.request('PATCH', path, { key: 'broker', body: { data: { status: 'active', qualified: true } } }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  await refused(
    t,
    server,
    tender.id,
    () => server.request('PATCH', path, { key: 'broker1', token: tender.token, body: { data: { status: 'active', qualified: true } } }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'active', qualified: false }),
    errorReply(422, 'body', 'qualified', ["Can't update award to active status with not qualified"]),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'unsuccessful', qualified: true }),
    errorReply(422, 'body', 'qualified', ["Can't update award to unsuccessful status when qualified/eligible isn't set to False"]),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'unsuccessful' }),
    errorReply(422, 'body', 'qualified', ["Can't update award to unsuccessful status when qualified/eligible isn't set to False"]),
  );
  await refused(t, server, tender.id, () => patchAward(server, tender, award.id, { eligible: true }), {
    status: 422,
    body: { errors: [{ name: 'eligible' }] },
  });
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'cancelled' }),
    errorReply(403, 'body', 'data', "Can't update award in current (pending) status"),
  );

  const titled = await patchAward(server, tender, award.id, { title: 'Рішення' });
  t.match(titled.body.data, { status: 'pending', title: 'Рішення' }, "a pending award's texts change without a decision");
  const unchanged = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body;
  t.same((await patchAward(server, tender, award.id, { title: 'Рішення' })).body.data, titled.body.data);
  t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body, unchanged, 'a PATCH that changes nothing is not saved');
  t.equal((await patchAward(server, tender, award.id, { status: 'unsuccessful', qualified: false })).status, 200);
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'active', qualified: true }),
    errorReply(403, 'body', 'data', "Can't update award in current (unsuccessful) status"),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { title: 'Інше' }),
    errorReply(403, 'body', 'data', "Can't update award in current (unsuccessful) status"),
  );
});

t.test('an active award cancelled: its contract cancelled here and in /contracts, the next award made', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, bids, data } = await tenderInQualification(server, { lots: 0 });
  const award = data.awards[0];
  await patchAward(server, tender, award.id, decision('active', true, false));
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  const res = await patchAward(server, tender, award.id, { status: 'cancelled' });
  t.equal(res.status, 200);
  t.match(res.body.data, { status: 'cancelled' });
  const after = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.equal(after.status, 'active.qualification');
  t.notOk(after.awardPeriod.endDate, 'the award period is open again');
  t.match(after.contracts, [{ id: contract.id, status: 'cancelled' }]);
  t.match((await server.request('GET', `/api/2.5/contracts/${contract.id}`)).body.data, { status: 'cancelled' });
  t.match(after.awards.at(-1), { status: 'pending', bid_id: bids[1].id }, "the same bid's award again: cancelling is no refusal");
});

t.test('a signed contract keeps its award from being cancelled', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, bids, data } = await tenderInQualification(server, { lots: 0 });
  await patchAward(server, tender, data.awards[0].id, decision('active', true, false));
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  t.equal((await signContract(server, tender, contract.id, bids[1], 'broker2')).status, 200);
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, data.awards[0].id, { status: 'cancelled' }),
    errorReply(403, 'body', 'data', "Can't update award in current (complete) tender status"),
  );
});

t.test('competitiveOrdering decisions: eligible, when sent, must agree', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { procedure: 'competitiveOrdering', lots: 1 });
  const award = data.awards[0];
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'active', qualified: true, eligible: false }),
    errorReply(422, 'body', 'data', "Can't update award to active status with not eligible"),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'active', eligible: true }),
    errorReply(422, 'body', 'qualified', ["Can't update award to active status with not qualified"]),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'unsuccessful', eligible: false }),
    errorReply(422, 'body', 'data', "Can't update award to unsuccessful status when qualified/eligible isn't set to False"),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, award.id, { status: 'unsuccessful', qualified: true, eligible: true }),
    errorReply(422, 'body', 'data', "Can't update award to unsuccessful status when qualified/eligible isn't set to False"),
  );
  await refused(t, server, tender.id, () => patchAward(server, tender, award.id, { status: 'active', qualified: true, eligible: 'yes' }), {
    status: 422,
    body: { errors: [{ location: 'body', name: 'eligible' }] },
  });
  const res = await patchAward(server, tender, award.id, { status: 'unsuccessful', qualified: true, eligible: false });
  t.equal(res.status, 200, 'not eligible is reason enough');
  t.match(
    res.body.data.complaintPeriod,
    { startDate: '2026-10-20T00:01:00+03:00', endDate: '2026-10-27T00:01:00+02:00' },
    'a stand-still of 5 working days (across the change to winter time)',
  );
});

t.test("competitiveOrdering decisions in the reference's current body: qualified alone", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { procedure: 'competitiveOrdering', lots: 1 });
  const first = data.awards[0];
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, first.id, { status: 'unsuccessful', qualified: true }),
    errorReply(422, 'body', 'data', "Can't update award to unsuccessful status when qualified/eligible isn't set to False"),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, first.id, { status: 'unsuccessful' }),
    errorReply(422, 'body', 'data', "Can't update award to unsuccessful status when qualified/eligible isn't set to False"),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, first.id, { status: 'active', qualified: false }),
    errorReply(422, 'body', 'qualified', ["Can't update award to active status with not qualified"]),
  );
  const unsuccessful = await patchAward(server, tender, first.id, { status: 'unsuccessful', qualified: false });
  t.equal(unsuccessful.status, 200, 'unsuccessful with qualified: false alone');
  const next = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.awards.find((a: any) => a.status === 'pending');
  const active = await patchAward(server, tender, next.id, { status: 'active', qualified: true });
  t.equal(active.status, 200, 'active with qualified alone');
  t.match(active.body.data, { status: 'active', qualified: true });
  t.notOk('eligible' in active.body.data, 'nothing is made up for eligible');
  const after = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.ok(
    after.contracts.some((c: any) => c.awardID === next.id),
    'the active award has its contract',
  );
});

t.test('awards are decided only in qualification and in active lots', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { lots: 2 });
  const [first, second] = data.awards;
  await patchAward(server, tender, first.id, decision('unsuccessful', false, false));
  await patchAward(server, tender, second.id, decision('active', true, false));
  const after = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  const next = after.awards.find((a: any) => a.lotID === first.lotID && a.status === 'pending');
  await patchAward(server, tender, next.id, decision('unsuccessful', false, false));
  const waiting = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  server.clock.set(new Date(Date.parse(waiting.next_check) + 1000));
  await runChronograph(server, tender.id);
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, next.id, { title: 'Інше' }),
    errorReply(403, 'body', 'data', 'Can update award only in active lot status'),
  );
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, 'a'.repeat(32), { status: 'active' }),
    errorReply(404, 'url', 'award_id', 'Not Found'),
  );
});

t.test('without awarding order every bid gets its award at once, and one award per lot may be active', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { lots: 1, config: { hasAwardingOrder: false } });
  t.equal(data.awards.length, 2);
  t.same(
    data.awards.map((a: any) => a.value.amount),
    [440, 450],
    'in awarding order',
  );
  t.equal((await patchAward(server, tender, data.awards[0].id, decision('active', true, false))).status, 200);
  const after = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.equal(after.status, 'active.awarded', 'an active award ends the awarding');
  await refused(
    t,
    server,
    tender.id,
    () => patchAward(server, tender, data.awards[1].id, decision('active', true, false)),
    errorReply(422, 'body', 'awards', "Can't activate award as tender already has active award for this lot"),
  );
});

t.test('award documents: the owner adds them in qualification; readers list and download them', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  const path = `/api/2.5/tenders/${tender.id}/awards/${data.awards[0].id}/documents`;
  const file = { filename: 'notice.pdf', content: 'notice', type: 'application/pdf' };
  await refused(
    t,
    server,
    tender.id,
    () => uploadDocument(server, path, { key: 'broker1', ...file }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  const added = await uploadDocument(server, path, { key: 'broker', token: tender.token, ...file });
  t.equal(added.status, 201);
  t.match(added.body.data, { title: 'notice.pdf', format: 'application/pdf', hash: /^md5:/ });
  const list = await server.request('GET', path);
  t.same(list.body.data, [added.body.data]);
  const download = await server.request('GET', new URL(added.body.data.url).pathname + new URL(added.body.data.url).search);
  t.equal(download.text, 'notice');
  await patchAward(server, tender, data.awards[0].id, decision('active', true, false));
  await refused(
    t,
    server,
    tender.id,
    () => uploadDocument(server, path, { key: 'broker', token: tender.token, ...file }),
    errorReply(403, 'body', 'data', "Can't add document in current (active.awarded) tender status"),
  );
});

t.test("a sandbox tender's award stand-still is accelerated as its other periods", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  // Planted as a SANDBOX_MODE node would have stored it at creation (docs/platform.md §Sandbox acceleration).
  const session = server.store.session();
  const stored = (await session.get('tenders', tender.id))!;
  const doc = stored.doc as ObjectDoc;
  await session.commit([updateOf(stored, { ...doc, data: { ...doc.data, procurementMethodDetails: 'quick, accelerator=1440' } })]);
  const res = await patchAward(server, tender, data.awards[0].id, decision('active', true, false));
  const { startDate, endDate } = res.body.data.complaintPeriod;
  t.equal(Date.parse(endDate) - Date.parse(startDate), (2 * 86_400_000) / 1440, '2 days / 1440 = 2 minutes');
});
