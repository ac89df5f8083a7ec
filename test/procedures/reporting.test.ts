import t, { type Test } from 'tap';
import { aSigner } from '../fixtures/awards';
import { uploadDocument } from '../fixtures/frameworks';
import { ocdsSchemasPresent, releasePackageValidator } from '../fixtures/ocds';
import { readRecording } from '../fixtures/reference-recording';
import { errorReply, startTestServer, type TestServer } from '../fixtures/server';
import { patchCancellation, postCancellation, uploadCancellationDocument } from '../fixtures/cancellations';
import type { Created } from '../fixtures/tenders';

/**
 * reporting's whole life over HTTP (docs/tenders.md §reporting), from the reference's tutorial recordings: created,
 * activated, an award named by the owner and activated, its contract signed, the tender complete; read on the way
 * through the feed, the history and OCDS. Runs on SQLite, and on MongoDB with MONGODB_URL.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const TUTORIAL = 'tendering/limited/http/tutorial';
const recorded = (name: string) => readRecording(`${TUTORIAL}/${name}.http`);
const validate = ocdsSchemasPresent ? releasePackageValidator() : () => [];

/** The recorded creation request, without the item's `product` (no product catalogue here, docs/tenders.md §reporting). */
export function reportingRequest(data: Record<string, unknown> = {}, key = 'broker') {
  const { data: recordedData, config } = recorded('create-tender-reporting-procuringEntity').requestBody;
  const items = recordedData.items.map(({ product: _p, ...item }: Record<string, unknown>) => item);
  return server.request('POST', '/api/2.5/tenders', { key, body: { data: { ...recordedData, items, ...data }, config } });
}

async function reportingTender(data: Record<string, unknown> = {}, key = 'broker'): Promise<Created> {
  const res = await reportingRequest(data, key);
  if (res.status !== 201) throw new Error(`reporting: ${res.status} ${res.text}`);
  return {
    id: res.body.data.id,
    token: res.body.access.token,
    transfer: res.body.access.transfer,
    data: res.body.data,
    config: res.body.config,
  };
}

const tenderPath = (tender: Created, ...parts: string[]) => [`/api/2.5/tenders/${tender.id}`, ...parts].join('/');
const activate = (tender: Created, key = 'broker', token = tender.token) =>
  server.request('PATCH', tenderPath(tender), { key, token, body: { data: { status: 'active' } } });
const awardBody = () => recorded('tender-award').requestBody;
const postAward = (tender: Created, o: { key?: string; token?: string; body?: unknown } = {}) =>
  server.request('POST', tenderPath(tender, 'awards'), {
    key: o.key ?? 'broker',
    token: o.token ?? tender.token,
    body: o.body ?? awardBody(),
  });
const patchAward = (tender: Created, id: string, data: unknown, o: { key?: string; token?: string } = {}) =>
  server.request('PATCH', tenderPath(tender, 'awards', id), { key: o.key ?? 'broker', token: o.token ?? tender.token, body: { data } });
/** A recorded object's shape without the members the server sets differently here (ids, dates, owner). */
function withoutIdAndDate(data: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, date: _date, owner: _owner, ...rest } = data;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}
const stored = async (tender: Created) => (await server.store.session().get('tenders', tender.id))!.doc;

async function ocdsValid(t: Test, path: string) {
  const res = await server.request('GET', `${path}?opt_schema=ocds`);
  t.equal(res.status, 200);
  t.same(validate(res.body), [], `${path} as OCDS is valid`);
  return res.body;
}

t.test('created as recorded: limited, no periods, causeDetails completed from the list', async (t) => {
  const res = await reportingRequest();
  t.equal(res.status, 201);
  const expected = recorded('create-tender-reporting-procuringEntity').responseBody.data;
  const {
    id: _i,
    tenderID: _t,
    date: _d,
    dateCreated: _dc,
    dateModified: _dm,
    owner: _o,
    contractChangeRationaleTypes: _c,
    items: _items,
    ...shape
  } = expected;
  t.match(res.body.data, shape);
  t.same(res.body.data.causeDetails, expected.causeDetails, 'scheme, titles and uri from the list');
  for (const absent of ['tenderPeriod', 'enquiryPeriod', 'minimalStep', 'submissionMethod', 'next_check', 'lots']) {
    t.notOk(absent in res.body.data, `no ${absent}`);
  }
  t.match(res.body.config, { hasAuction: false, hasAwardingOrder: true, restricted: false });
  t.match(res.headers.get('location'), new RegExp(`/api/2.5/tenders/${res.body.data.id}$`));
});

t.test('reporting: draft → active → award named and activated → contract signed → complete', async (t) => {
  const tender = await reportingTender();
  const feedIds = async () =>
    (await server.request('GET', '/api/2.5/tenders?opt_fields=status')).body.data.map((e: any) => `${e.id} ${e.status}`);
  t.notOk(
    (await feedIds()).some((e: string) => e.startsWith(tender.id)),
    'a draft is not in the feed',
  );

  const active = await activate(tender);
  t.equal(active.status, 200, active.text);
  const { contractChangeRationaleTypes: _c, items: _i, ...activated } = recorded('tender-activating').responseBody.data;
  t.match(active.body.data, withoutIdAndDate({ ...activated, dateModified: undefined, dateCreated: undefined, tenderID: undefined }));
  t.match(active.body.data, { status: 'active', procurementMethod: 'limited', procurementMethodType: 'reporting' });
  t.notOk('next_check' in active.body.data, 'nothing happens with time');
  t.ok((await feedIds()).includes(`${tender.id} active`), 'the feed lists it active');
  await ocdsValid(t, tenderPath(tender));

  const award = await postAward(tender);
  t.equal(award.status, 201);
  t.match(award.headers.get('location'), new RegExp(`/api/2.5/tenders/${tender.id}/awards/${award.body.data.id}$`));
  const { id: _id, date: _date, ...awardShape } = recorded('tender-award').responseBody.data;
  t.match(award.body.data, { ...awardShape, id: /^[0-9a-f]{32}$/, date: '2026-10-05T12:00:00+03:00' });
  t.notOk('complaintPeriod' in award.body.data || 'bid_id' in award.body.data);
  const awardId = award.body.data.id;

  for (const filename of ['award_first_document.doc', 'award_second_document.doc']) {
    const doc = await uploadDocument(server, tenderPath(tender, 'awards', awardId, 'documents'), {
      key: 'broker',
      token: tender.token,
      filename,
    });
    t.equal(doc.status, 201, `${filename} uploaded`);
    t.match(doc.body.data, { title: filename, author: 'tender_owner', documentOf: 'tender' });
  }
  const docs = await server.request('GET', tenderPath(tender, 'awards', awardId, 'documents'));
  t.equal(docs.body.data.length, 2);

  const approved = await patchAward(tender, awardId, recorded('tender-award-approve').requestBody.data);
  t.equal(approved.status, 200);
  t.match(approved.body.data, { id: awardId, status: 'active', qualified: true, documents: [{}, {}], value: awardShape.value });
  t.notOk('complaintPeriod' in approved.body.data, 'no stand-still');

  const contracts = (await server.request('GET', tenderPath(tender, 'contracts'))).body.data;
  t.equal(contracts.length, 1);
  t.match(contracts[0], {
    awardID: awardId,
    status: 'pending',
    value: { amount: 475000, amountNet: 475000 },
    suppliers: [{ name: 'ДКП «Школяр»' }],
  });
  t.equal(contracts[0].items.length, 1, "the tender's items");
  const contractPath = `/api/2.5/contracts/${contracts[0].id}`;
  const contract = (await server.request('GET', contractPath)).body.data;
  t.match(contract, { tender_id: tender.id, status: 'pending', buyer: { signerInfo: { name: 'Test Testovich' } } });
  t.notOk((await stored(tender)).data.awardPeriod, 'no awardPeriod: nothing was awarded from bids');

  const signed = await server.request('PATCH', contractPath, { key: 'broker', token: tender.token, body: { data: { status: 'active' } } });
  t.equal(signed.status, 200, signed.text);
  t.match(signed.body.data, { status: 'active', dateSigned: '2026-10-05T12:00:00+03:00' });
  const complete = (await server.request('GET', tenderPath(tender))).body.data;
  t.match(complete, { status: 'complete', contracts: [{ status: 'active' }], awards: [{ status: 'active' }] });
  t.ok((await feedIds()).includes(`${tender.id} complete`));

  const release = (await ocdsValid(t, tenderPath(tender))).releases[0];
  t.match(release, {
    tender: { procurementMethod: 'limited', status: 'complete' },
    awards: [{ status: 'active' }],
    contracts: [{ status: 'active' }],
  });
  t.notOk(release.bids, 'no bids in the release');
  await ocdsValid(t, contractPath);

  const history = await server.request('GET', `${tenderPath(tender)}/historical`);
  t.equal(history.status, 200);
  t.ok(Number(history.headers.get('x-revision-n')) >= 5, 'every step is a revision');

  t.match(await postAward(tender), errorReply(403, 'body', 'data', "Can't create award in current (complete) tender status"));
  t.match(
    await patchAward(tender, awardId, { title: 'x' }),
    errorReply(403, 'body', 'data', "Can't update award in current (complete) tender status"),
  );
});

t.test('a refused award is followed by another the owner names; an active one may be cancelled', async (t) => {
  const tender = await reportingTender();
  await activate(tender);
  const first = (await postAward(tender)).body.data;
  t.match(await postAward(tender), errorReply(403, 'body', 'data', "Can't create new award while any (pending) award exists"));
  t.match(
    await patchAward(tender, first.id, { status: 'unsuccessful' }),
    errorReply(422, 'body', 'qualified', ["Can't update award to unsuccessful status when qualified/eligible isn't set to False"]),
  );
  t.match(
    await patchAward(tender, first.id, { status: 'active' }),
    errorReply(422, 'body', 'qualified', ["Can't update award to active status with not qualified"]),
  );
  const changed = await patchAward(tender, first.id, { value: { amount: 470000, currency: 'UAH', valueAddedTaxIncluded: true } });
  t.equal(changed.body.data.value.amount, 470000, 'a pending award changes');
  t.match((await patchAward(tender, first.id, { status: 'unsuccessful', qualified: false })).body.data, { status: 'unsuccessful' });
  t.match(
    await patchAward(tender, first.id, { status: 'cancelled' }),
    errorReply(403, 'body', 'data', "Can't update award in current (unsuccessful) status"),
  );
  t.equal((await server.request('GET', tenderPath(tender))).body.data.status, 'active', 'the tender waits for the next award');

  const second = (await postAward(tender)).body.data;
  await patchAward(tender, second.id, { status: 'active', qualified: true });
  t.match(await postAward(tender), errorReply(403, 'body', 'data', "Can't create new award while any (active) award exists"));
  const cancelled = await patchAward(tender, second.id, { status: 'cancelled' });
  t.equal(cancelled.body.data.status, 'cancelled');
  const data = (await server.request('GET', tenderPath(tender))).body.data;
  t.match(data.contracts, [{ awardID: second.id, status: 'cancelled' }]);
  t.equal((await server.request('GET', `/api/2.5/contracts/${data.contracts[0].id}`)).body.data.status, 'cancelled');
  t.equal((await postAward(tender)).status, 201, 'a third award after a cancelled one');
});

t.test('the award routes refuse the wrong party and the wrong phase; nothing stored changes', async (t) => {
  const tender = await reportingTender();
  const forbidden = errorReply(403, 'url', 'permission', 'Forbidden');
  const draft = await stored(tender);
  t.match(await postAward(tender), errorReply(403, 'body', 'data', "Can't create award in current (draft) tender status"));
  t.same(await stored(tender), draft, 'a draft takes no award');
  await activate(tender);
  const before = await stored(tender);
  t.match(await server.request('POST', tenderPath(tender, 'awards'), { body: awardBody() }), forbidden, 'anonymous');
  t.match(await postAward(tender, { key: 'broker1' }), forbidden, 'another broker with the token');
  t.match(await postAward(tender, { token: 'f'.repeat(32) }), forbidden, 'a wrong token');
  t.match(await postAward(tender, { key: 'chronograph' }), forbidden, 'a system role');
  t.match(
    await postAward(tender, { body: { data: { value: { amount: 1 } } } }),
    errorReply(422, 'body', 'suppliers', ['This field is required.']),
  );
  t.match(
    await postAward(tender, { body: { data: { ...awardBody().data, bid_id: 'f'.repeat(32) } } }),
    errorReply(422, 'body', 'bid_id', 'Rogue field'),
  );
  t.same(await stored(tender), before, 'nothing stored changes on refusal');

  const awardId = (await postAward(tender)).body.data.id;
  const pending = await stored(tender);
  const decide = { status: 'active', qualified: true };
  t.match(await server.request('PATCH', tenderPath(tender, 'awards', awardId), { body: { data: decide } }), forbidden);
  t.match(await patchAward(tender, awardId, decide, { key: 'broker1' }), forbidden);
  t.match(await patchAward(tender, awardId, decide, { token: 'f'.repeat(32) }), forbidden);
  const docs = tenderPath(tender, 'awards', awardId, 'documents');
  t.match(await uploadDocument(server, docs, { key: 'broker1', token: tender.token }), forbidden);
  t.match(await uploadDocument(server, docs, {}), forbidden);
  t.same(await stored(tender), pending);
  t.match(await patchAward(tender, 'f'.repeat(32), decide), errorReply(404, 'url', 'award_id', 'Not Found'));
});

t.test("a tender with bids keeps the server's awards: its owner may not name one", async (t) => {
  const { aTender, createTender } = await import('../fixtures/tenders');
  const below = await createTender(server, aTender());
  t.match(await postAward(below), errorReply(403, 'url', 'permission', 'Forbidden'));
});

t.test('cause: required above the thresholds, from the list, never the older members (recordings)', async (t) => {
  for (const name of [
    'create-tender-reporting-invalid',
    'create-tender-reporting-invalid-cause-details',
    'create-tender-reporting-cause-details-description-required',
  ]) {
    const { requestBody, status, responseBody } = recorded(name);
    const items = requestBody.data.items.map(({ product: _p, ...item }: Record<string, unknown>) => item);
    const res = await server.request('POST', '/api/2.5/tenders', {
      key: 'broker',
      body: { ...requestBody, data: { ...requestBody.data, items } },
    });
    t.same({ status: res.status, body: res.body }, { status, body: responseBody }, name);
  }
  const unknown = await reportingRequest({ causeDetails: { code: 'noSuchCause', description: 'x' } });
  t.equal(unknown.status, 422);
  t.match(unknown.body.errors[0], {
    name: 'causeDetails',
    description: { code: [/^Value must be one of \['naturalGas', 'belowThresholdUnsuccessful', .*'reportingEligibilityException'\]\.$/] },
  });
  t.notMatch(unknown.text, 'stateSupportForChildren', 'archived causes are not offered');
  t.match(await reportingRequest({ cause: 'quick' }), errorReply(422, 'body', 'cause', 'Rogue field.'));
  for (const below of [
    { value: { amount: 199999, currency: 'UAH' } },
    { procurementMethodRationale: 'чому' },
    { mainProcurementCategory: 'works', value: { amount: 1000000 } },
  ]) {
    t.equal((await reportingRequest({ ...below, causeDetails: undefined })).status, 201, `no cause needed: ${JSON.stringify(below)}`);
  }
  t.match(
    await reportingRequest({ tenderPeriod: { endDate: '2026-11-01T00:00:00+02:00' } }),
    errorReply(422, 'body', 'tenderPeriod', 'Rogue field'),
  );
  t.match(
    await reportingRequest({ procurementMethod: 'open' }),
    errorReply(422, 'body', 'procurementMethod', 'procurementMethod should be limited'),
  );

  const tender = await reportingTender();
  const patched = await server.request('PATCH', tenderPath(tender), {
    key: 'broker',
    token: tender.token,
    body: { data: { causeDetails: { code: 'naturalGas', description: 'газ', scheme: 'LAW922' } } },
  });
  t.equal(patched.status, 200);
  t.match(patched.body.data.causeDetails, { code: 'naturalGas', scheme: 'DECREE1178', title: 'Підпункт 18 пункту 13', description: 'газ' });
});

t.test('no bids, questions or lots for reporting', async (t) => {
  const tender = await reportingTender();
  await activate(tender);
  t.match(await server.request('GET', tenderPath(tender, 'bids')), errorReply(404, 'url', 'not_found', 'Not Found'));
  const { signerInfo: _s, ...author } = recorded('tender-award').requestBody.data.suppliers[0];
  const asked = await server.request('POST', tenderPath(tender, 'questions'), {
    key: 'broker1',
    body: { data: { title: 'q', description: 'd', author } },
  });
  t.match(asked, errorReply(403, 'body', 'data', 'Can add question only in enquiryPeriod'), 'no question is taken');
});

t.test('cancellations: the reasons reporting allows; the active cancellation cancels the tender and its pending contract', async (t) => {
  const tender = await reportingTender();
  const draftCancel = await postCancellation(server, tender, recorded('prepare-cancellation').requestBody.data);
  t.match(draftCancel, errorReply(403, 'body', 'data', "Can't perform cancellation in current (draft) tender status"));
  await activate(tender);
  const award = (await postAward(tender)).body.data;
  await patchAward(tender, award.id, { status: 'active', qualified: true });
  t.match(
    await postCancellation(server, tender, { reason: 'r', reasonType: 'noOffer' }),
    errorReply(422, 'body', 'reasonType', ["Value must be one of ['noDemand', 'unFixable', 'forceMajeure', 'expensesCut']"]),
  );
  const made = await postCancellation(server, tender, recorded('prepare-cancellation').requestBody.data);
  t.equal(made.status, 201);
  t.match(made.body.data, withoutIdAndDate(recorded('prepare-cancellation').responseBody.data));
  const id = made.body.data.id;
  const reason = await patchCancellation(server, tender, id, recorded('update-cancellation-reasonType').requestBody.data);
  t.match(reason.body.data, withoutIdAndDate(recorded('update-cancellation-reasonType').responseBody.data));
  t.equal((await uploadCancellationDocument(server, tender, id)).status, 201);
  const other = { key: 'broker1' };
  t.match(await patchCancellation(server, tender, id, { status: 'pending' }, other), errorReply(403, 'url', 'permission', 'Forbidden'));
  const pending = await patchCancellation(server, tender, id, { status: 'pending' });
  t.match(pending.body.data, { status: 'active' });
  const data = (await server.request('GET', tenderPath(tender))).body.data;
  t.match(data, { status: 'cancelled', contracts: [{ status: 'cancelled' }] });
  t.equal((await server.request('GET', `/api/2.5/contracts/${data.contracts[0].id}`)).body.data.status, 'cancelled');
  await ocdsValid(t, tenderPath(tender));
});

t.test("transfers: a reporting tender of a broker that left is taken over; the new owner's token names the award", async (t) => {
  const tender = await reportingTender({}, 'brokerx');
  const transfer = await server.request('POST', '/api/2.5/transfers', { key: 'broker3', body: { data: {} } });
  const moved = await server.request('POST', tenderPath(tender, 'ownership'), {
    key: 'broker3',
    body: { data: { id: transfer.body.data.id, transfer: tender.transfer } },
  });
  t.same(moved.body, { data: { id: tender.id, owner: 'broker3' } });
  const token = transfer.body.access.token;
  t.equal((await activate(tender, 'broker3', token)).status, 200);
  t.match(await postAward(tender, { key: 'brokerx' }), errorReply(403, 'url', 'permission', 'Forbidden'), 'the old owner');
  t.equal((await postAward(tender, { key: 'broker3', token })).status, 201);
});

t.test("without a bid the tender's owner names the supplier's signer, then signs the contract", async (t) => {
  const tender = await reportingTender();
  await activate(tender);
  const body = awardBody();
  const { signerInfo: _s, ...supplier } = body.data.suppliers[0];
  const award = (await postAward(tender, { body: { data: { ...body.data, suppliers: [supplier] } } })).body.data;
  await patchAward(tender, award.id, { status: 'active', qualified: true });
  const contractId = (await server.request('GET', tenderPath(tender, 'contracts'))).body.data[0].id;
  const path = `/api/2.5/contracts/${contractId}`;
  const sign = () => server.request('PATCH', path, { key: 'broker', token: tender.token, body: { data: { status: 'active' } } });
  t.match(
    await sign(),
    errorReply(422, 'body', 'data', 'signerInfo field for buyer and suppliers is required for contract in `active` status'),
  );
  const signer = (key: string, token: string) =>
    server.request('PUT', `${path}/suppliers/signer_info`, { key, token, body: { data: aSigner('Постачальник') } });
  t.match(await signer('broker1', tender.token), errorReply(403, 'url', 'permission', 'Forbidden'), 'another broker');
  t.equal((await signer('broker', tender.token)).status, 200);
  t.equal((await sign()).status, 200);
  t.equal((await server.request('GET', tenderPath(tender))).body.data.status, 'complete');
});
