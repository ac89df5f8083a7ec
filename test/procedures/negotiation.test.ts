import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { type ObjectDoc } from '../../src/domain/core/objects';
import { updateOf } from '../../src/domain/save-rules';
import { aPlan, createPlan } from '../fixtures/plans';
import { ocdsSchemasPresent, releasePackageValidator } from '../fixtures/ocds';
import { readRecording } from '../fixtures/reference-recording';
import { errorReply, startTestServer, type TestServer } from '../fixtures/server';
import { patchCancellation, postCancellation, uploadCancellationDocument } from '../fixtures/cancellations';
import { anItem, type Created } from '../fixtures/tenders';

/**
 * negotiation's and negotiation.quick's whole life over HTTP (docs/tenders.md §negotiation and negotiation.quick),
 * from the reference's tutorial recordings: created with a lot, activated, an award named by the owner for the lot
 * and activated, its stand-still holding the contract until the injected clock passes its end, the signed contract
 * completing the tender. Runs on SQLite, and on MongoDB with MONGODB_URL.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const TUTORIAL = 'tendering/limited/http/tutorial';
const recorded = (name: string) => readRecording(`${TUTORIAL}/${name}.http`);
const validate = ocdsSchemasPresent ? releasePackageValidator() : () => [];
const DAY = 86_400_000;
const LOT2 = 'f'.repeat(31) + '2';

type Type = 'negotiation' | 'negotiation.quick';
const creation = (type: Type) => recorded(`create-tender-${type === 'negotiation' ? 'negotiation' : 'negotiation-quick'}-procuringEntity`);

function negotiationRequest(type: Type, data: Record<string, unknown> = {}, key = 'broker') {
  const { data: recordedData, config } = creation(type).requestBody;
  return server.request('POST', '/api/2.5/tenders', { key, body: { data: { ...recordedData, ...data }, config } });
}

async function negotiationTender(type: Type, data: Record<string, unknown> = {}): Promise<Created> {
  const res = await negotiationRequest(type, data);
  if (res.status !== 201) throw new Error(`${type}: ${res.status} ${res.text}`);
  return {
    id: res.body.data.id,
    token: res.body.access.token,
    transfer: res.body.access.transfer,
    data: res.body.data,
    config: res.body.config,
  };
}

const tenderPath = (tender: Created, ...parts: string[]) => [`/api/2.5/tenders/${tender.id}`, ...parts].join('/');
const activate = (tender: Created) =>
  server.request('PATCH', tenderPath(tender), { key: 'broker', token: tender.token, body: { data: { status: 'active' } } });
const awardBody = (lotID: string | undefined) => {
  const { data } = recorded('tender-negotiation-award').requestBody;
  return { data: { ...data, lotID } };
};
const postAward = (tender: Created, body: unknown, key = 'broker') =>
  server.request('POST', tenderPath(tender, 'awards'), { key, token: tender.token, body });
const patchAward = (tender: Created, id: string, data: unknown) =>
  server.request('PATCH', tenderPath(tender, 'awards', id), { key: 'broker', token: tender.token, body: { data } });
const read = async (tender: Created) => (await server.request('GET', tenderPath(tender))).body.data;
const stored = async (tender: Created) => (await server.store.session().get('tenders', tender.id))!.doc;

async function ocdsValid(t: Test, path: string) {
  const res = await server.request('GET', `${path}?opt_schema=ocds`);
  t.equal(res.status, 200);
  t.same(validate(res.body), [], `${path} as OCDS is valid`);
}

for (const [type, days] of [
  ['negotiation', 5],
  ['negotiation.quick', 3],
] as const) {
  t.test(`${type}: created as recorded, its config fixed by the standards`, async (t) => {
    const res = await negotiationRequest(type);
    t.equal(res.status, 201, res.text);
    const expected = creation(type).responseBody.data;
    t.match(res.body.data, {
      procurementMethod: 'limited',
      procurementMethodType: type,
      status: 'draft',
      causeDetails: expected.causeDetails,
      lots: [{ id: expected.lots[0].id, status: 'active', value: expected.lots[0].value }],
    });
    t.same(res.body.data.causeDetails, expected.causeDetails, 'scheme, titles and uri from the list');
    for (const absent of ['tenderPeriod', 'enquiryPeriod', 'next_check', 'awardPeriod']) t.notOk(absent in res.body.data, `no ${absent}`);
    const { config } = creation(type).responseBody;
    const spec = Object.fromEntries(Object.keys(res.body.config).map((k) => [k, config[k]]));
    t.same(res.body.config, spec, 'the 11 keys as the reference answers them');
  });

  t.test(`${type}: draft → active → award for the lot → stand-still → contract signed → complete`, async (t) => {
    const tender = await negotiationTender(type);
    const lotId = tender.data.lots[0].id;
    const active = await activate(tender);
    t.equal(active.status, 200, active.text);
    t.match(active.body.data, { status: 'active', lots: [{ status: 'active' }] });
    t.notOk('next_check' in active.body.data, 'nothing happens with time while no award is decided');

    const award = await postAward(tender, awardBody(lotId));
    t.equal(award.status, 201, award.text);
    const {
      id: _id,
      date: _date,
      lotID: _lot,
      ...shape
    } = recorded(`tender-${type === 'negotiation' ? 'negotiation' : 'negotiation-quick'}-award`).responseBody.data;
    t.match(award.body.data, { ...shape, lotID: lotId, status: 'pending' });
    const awardId = award.body.data.id;
    t.match(
      await patchAward(tender, awardId, { status: 'active' }),
      errorReply(422, 'body', 'qualified', ["Can't update award to active status with not qualified"]),
    );

    const approved = await patchAward(tender, awardId, { status: 'active', qualified: true });
    t.equal(approved.status, 200, approved.text);
    const now = server.clock.now();
    const end = new Date(now.getTime() + days * DAY);
    t.match(approved.body.data, { status: 'active', complaintPeriod: { startDate: '2026-10-05T12:00:00+03:00' } });
    t.equal(Date.parse(approved.body.data.complaintPeriod.endDate), end.getTime(), `${days} calendar days of stand-still`);

    const contracts = (await server.request('GET', tenderPath(tender, 'contracts'))).body.data;
    t.match(contracts, [{ awardID: awardId, status: 'pending' }]);
    const contractPath = `/api/2.5/contracts/${contracts[0].id}`;
    const sign = () => server.request('PATCH', contractPath, { key: 'broker', token: tender.token, body: { data: { status: 'active' } } });
    const before = await stored(tender);
    t.match(
      await sign(),
      errorReply(403, 'body', 'data', `Can't sign contract before stand-still period end (${approved.body.data.complaintPeriod.endDate})`),
      'the stand-still holds the contract',
    );
    t.same(await stored(tender), before, 'nothing stored changes on refusal');
    server.clock.set(new Date(end.getTime() - 1000));
    t.equal((await sign()).status, 403, 'still held a second before its end');
    server.clock.set(new Date(end.getTime() + 1000));
    const early = { data: { status: 'active', dateSigned: approved.body.data.complaintPeriod.endDate } };
    t.match(
      await server.request('PATCH', contractPath, { key: 'broker', token: tender.token, body: early }),
      errorReply(422, 'body', 'dateSigned', [
        `Contract signature date should be after award complaint period end date (${approved.body.data.complaintPeriod.endDate})`,
      ]),
      'nor dated inside it',
    );
    const signed = await sign();
    t.equal(signed.status, 200, signed.text);
    t.match(signed.body.data, { status: 'active' });
    t.match(await read(tender), {
      status: 'complete',
      lots: [{ status: 'complete' }],
      awards: [{ status: 'active' }],
      contracts: [{ status: 'active' }],
    });
    await ocdsValid(t, tenderPath(tender));
    server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
  });
}

/** The recorded negotiation with a second lot: its own item and milestones. */
function twoLots(type: Type): Record<string, unknown> {
  const { data } = creation(type).requestBody;
  const lot1 = data.lots[0].id;
  return {
    lots: [...data.lots, { ...data.lots[0], id: LOT2, title: 'Лот №2' }],
    items: [...data.items, { ...data.items[0], relatedLot: LOT2 }],
    milestones: [
      ...data.milestones,
      ...data.milestones.map((m: Record<string, unknown>, i: number) => ({ ...m, id: `${i}`.repeat(32), relatedLot: LOT2 })),
    ].map((m) => ({ ...m, relatedLot: m.relatedLot ?? lot1 })),
  };
}

t.test('creation refusals: the cause from the type list, the accreditation, the members a negotiation lacks', async (t) => {
  const { causeDetails } = creation('negotiation').requestBody.data;
  t.match(
    await negotiationRequest('negotiation', { causeDetails: undefined }),
    errorReply(422, 'body', 'causeDetails', 'This field is required.'),
  );
  t.match(
    await negotiationRequest('negotiation.quick', { causeDetails: undefined }),
    errorReply(422, 'body', 'causeDetails', 'This field is required.'),
  );
  t.match(
    await negotiationRequest('negotiation', { cause: 'twiceUnsuccessful', causeDescription: 'x' }),
    errorReply(422, 'body', 'cause', 'Rogue field.'),
  );
  const wrongList = await negotiationRequest('negotiation.quick', { causeDetails });
  t.equal(wrongList.status, 422, "negotiation's cause is not on negotiation.quick's list");
  t.same(wrongList.body.errors[0].description, {
    code: [
      "Value must be one of ['unforeseeableUrgentNeed', 'humanitarianAidProvision', 'participantContractTermination', 'tenderDecisionAppeal', 'essentialServicesProcurement'].",
    ],
  });
  const unknown = await negotiationRequest('negotiation', { causeDetails: { code: 'quick', description: 'x' } });
  t.match(unknown.body.errors[0], {
    name: 'causeDetails',
    description: { code: [/^Value must be one of \['twiceUnsuccessful', 'noCompetition', .*'activeWarZone'\]\.$/] },
  });
  t.notMatch(unknown.text, 'resolvingInsolvency', 'archived causes are not offered');
  t.match(
    await negotiationRequest('negotiation', { causeDetails: { code: 'defenseNeeds' } }),
    errorReply(422, 'body', 'causeDetails', { description: ['This field is required.'] }),
  );
  t.match(
    await negotiationRequest('negotiation', { tenderPeriod: { endDate: '2026-11-01T00:00:00+02:00' } }),
    errorReply(422, 'body', 'tenderPeriod', 'Rogue field'),
  );
  t.match(
    await negotiationRequest('negotiation', { procurementMethod: 'open' }),
    errorReply(422, 'body', 'procurementMethod', 'procurementMethod should be limited'),
  );

  const dir = mkdtempSync(join(tmpdir(), 'auth-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'auth.ini'), '[brokers]\nbroker1 = broker1,1\nbroker3 = broker3,3\nbroker5 = broker5,5\n');
  const levels = await startTestServer({ env: { AUTH_FILE: join(dir, 'auth.ini') } });
  t.teardown(() => levels.close());
  const { data, config } = creation('negotiation').requestBody;
  const post = (key: string, extra: Record<string, unknown> = {}) =>
    levels.request('POST', '/api/2.5/tenders', { key, body: { data: { ...data, ...extra }, config } });
  const refused = errorReply(403, 'url', 'accreditation', 'Broker Accreditation level does not permit tender creation');
  t.match(await post('broker1'), refused, 'level 1 creates reporting, not negotiation');
  t.equal((await post('broker3')).status, 201, 'level 3');
  const central = { procuringEntity: { ...data.procuringEntity, kind: 'central' } };
  t.match(await post('broker3', central), refused, 'a central procuring entity needs level 5');
  t.equal((await post('broker5', central)).status, 201);
});

t.test('activation needs every item in a lot; the tender is fixed once an award is named', async (t) => {
  const { items, milestones } = creation('negotiation').requestBody.data;
  const noLots = await negotiationTender('negotiation', {
    lots: undefined,
    items: items.map(({ relatedLot: _r, ...i }: Record<string, unknown>) => i),
    milestones: milestones.map(({ relatedLot: _r, ...m }: Record<string, unknown>) => m),
  });
  t.match(await activate(noLots), errorReply(422, 'body', 'item.relatedLot', 'This field is required'));

  const { lots } = creation('negotiation').requestBody.data;
  const tender = await negotiationTender('negotiation', { lots: [...lots, { ...lots[0], id: LOT2 }] });
  t.equal((await activate(tender)).status, 200, 'a lot may have no items');
  const title = { data: { title: 'Новий' } };
  t.equal((await server.request('PATCH', tenderPath(tender), { key: 'broker', token: tender.token, body: title })).status, 200);
  t.equal((await postAward(tender, awardBody(tender.data.lots[0].id))).status, 201);
  const before = await stored(tender);
  t.match(
    await server.request('PATCH', tenderPath(tender), { key: 'broker', token: tender.token, body: title }),
    errorReply(403, 'body', 'data', "Can't update tender when there is at least one award."),
  );
  const lot = { data: { title: 'Лот', value: { amount: 1000, currency: 'UAH', valueAddedTaxIncluded: true } } };
  t.match(
    await server.request('POST', tenderPath(tender, 'lots'), { key: 'broker', token: tender.token, body: lot }),
    errorReply(403, 'body', 'data', "Can't add lot when you have awards"),
  );
  t.match(
    await server.request('DELETE', tenderPath(tender, 'lots', tender.data.lots[0].id), { key: 'broker', token: tender.token }),
    errorReply(422, 'body', 'data', 'Cannot delete lot with related milestones'),
    'the related objects answer first, as the reference checks them first',
  );
  t.match(
    await server.request('DELETE', tenderPath(tender, 'lots', LOT2), { key: 'broker', token: tender.token }),
    errorReply(403, 'body', 'data', "Can't delete lot when you have awards"),
  );
  t.same(await stored(tender), before, 'nothing stored changes on refusal');
});

t.test('lots: an award per lot, each with its own stand-still; the lots complete one by one', async (t) => {
  const tender = await negotiationTender('negotiation', twoLots('negotiation'));
  const lot1 = tender.data.lots[0].id;
  t.equal((await activate(tender)).status, 200);
  t.match(await postAward(tender, awardBody(undefined)), errorReply(422, 'body', 'lotID', ['This field is required.']));
  t.match(await postAward(tender, awardBody('e'.repeat(32))), errorReply(422, 'body', 'lotID', ['lotID should be one of lots']));
  const first = (await postAward(tender, awardBody(lot1))).body.data;
  t.match(
    await postAward(tender, awardBody(lot1)),
    errorReply(403, 'body', 'data', "Can't create new award on lot while any (pending) award exists"),
  );
  const second = await postAward(tender, awardBody(LOT2));
  t.equal(second.status, 201, 'the other lot is free');
  t.match(
    await patchAward(tender, first.id, { lotID: LOT2 }),
    errorReply(422, 'body', 'lotID', 'Another award is already using this lotID.'),
  );

  t.match((await patchAward(tender, second.body.data.id, { status: 'unsuccessful', qualified: false })).body.data, {
    status: 'unsuccessful',
  });
  const refused = (await read(tender)).awards[1];
  t.notOk('complaintPeriod' in refused, 'a refusal has no stand-still');
  const moved = await patchAward(tender, first.id, { lotID: LOT2 });
  t.equal(moved.body.data.lotID, LOT2, 'a pending award moves to a lot without a live award');
  await patchAward(tender, first.id, { lotID: lot1 });

  const approved = (await patchAward(tender, first.id, { status: 'active', qualified: true })).body.data;
  const third = (await postAward(tender, awardBody(LOT2))).body.data;
  server.clock.advance(DAY);
  const later = (await patchAward(tender, third.id, { status: 'active', qualified: true })).body.data;
  t.equal(Date.parse(later.complaintPeriod.endDate) - Date.parse(approved.complaintPeriod.endDate), DAY, 'each award its own stand-still');

  const contracts = (await server.request('GET', tenderPath(tender, 'contracts'))).body.data;
  t.equal(contracts.length, 2);
  const sign = (awardId: string) => {
    const id = contracts.find((c: { awardID: string }) => c.awardID === awardId).id;
    return server.request('PATCH', `/api/2.5/contracts/${id}`, {
      key: 'broker',
      token: tender.token,
      body: { data: { status: 'active' } },
    });
  };
  server.clock.set(new Date(Date.parse(approved.complaintPeriod.endDate) + 1000));
  t.equal((await sign(first.id)).status, 200, "the first lot's stand-still is over");
  t.equal((await sign(third.id)).status, 403, "the second lot's is not");
  t.match(await read(tender), { status: 'active', lots: [{ status: 'complete' }, { status: 'active' }] });
  server.clock.advance(DAY);
  t.match(
    await postCancellation(server, tender, { reason: 'r', reasonType: 'noDemand' }),
    errorReply(403, 'body', 'data', "Can't perform cancellation, if there is at least one complete lot"),
  );
  t.equal((await sign(third.id)).status, 200);
  t.match(await read(tender), { status: 'complete', lots: [{ status: 'complete' }, { status: 'complete' }] });
  await ocdsValid(t, tenderPath(tender));
  server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
});

t.test('cancellations: the reasons as the reference; none while an award stands still; the tender cancelled', async (t) => {
  const tender = await negotiationTender('negotiation.quick');
  t.match(
    await postCancellation(server, tender, recorded('negotiation-prepare-cancellation').requestBody.data),
    errorReply(403, 'body', 'data', "Can't perform cancellation in current (draft) tender status"),
  );
  await activate(tender);
  t.match(
    await postCancellation(server, tender, { reason: 'r', reasonType: 'forceMajeure' }),
    errorReply(422, 'body', 'reasonType', [
      "Value must be one of ['noObjectiveness', 'unFixable', 'noDemand', 'expensesCut', 'dateViolation']",
    ]),
  );
  const award = (await postAward(tender, awardBody(tender.data.lots[0].id))).body.data;
  await patchAward(tender, award.id, { status: 'active', qualified: true });
  server.clock.advance(1000);
  t.match(
    await postCancellation(server, tender, recorded('negotiation-prepare-cancellation').requestBody.data),
    errorReply(403, 'body', 'data', "Cancellation can't be added when exists active complaint period"),
  );
  server.clock.advance(3 * DAY);
  const made = await postCancellation(server, tender, recorded('negotiation-prepare-cancellation').requestBody.data);
  t.equal(made.status, 201, made.text);
  const { id: _i, date: _d, ...shape } = recorded('negotiation-prepare-cancellation').responseBody.data;
  t.match(made.body.data, shape);
  const id = made.body.data.id;
  const reason = await patchCancellation(server, tender, id, recorded('negotiation-update-cancellation-reasonType').requestBody.data);
  t.match(reason.body.data, { reasonType: 'dateViolation', status: 'draft' });
  t.equal((await uploadCancellationDocument(server, tender, id)).status, 201);
  t.match(
    await patchCancellation(server, tender, id, { status: 'pending' }, { key: 'broker1' }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  const pending = await patchCancellation(server, tender, id, { status: 'pending' });
  t.equal(pending.status, 200, pending.text);
  const data = await read(tender);
  t.match(data, { status: 'cancelled', contracts: [{ status: 'cancelled' }] });
  t.equal((await server.request('GET', `/api/2.5/contracts/${data.contracts[0].id}`)).body.data.status, 'cancelled');
  server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
});

t.test('complaint routes: award and cancellation complaints, none on the tender', async (t) => {
  const tender = await negotiationTender('negotiation');
  await activate(tender);
  const award = (await postAward(tender, awardBody(tender.data.lots[0].id))).body.data;
  t.same((await server.request('GET', tenderPath(tender, 'awards', award.id, 'complaints'))).body, { data: [] });
  t.match(await server.request('GET', tenderPath(tender, 'complaints')), errorReply(404, 'url', 'not_found', 'Not Found'));
  t.match(await server.request('GET', tenderPath(tender, 'bids')), errorReply(404, 'url', 'not_found', 'Not Found'));
});

t.test('a sandbox accelerator shortens the stand-still, and the contract waits for the shortened end', async (t) => {
  const tender = await negotiationTender('negotiation');
  // Planted as a SANDBOX_MODE node would have stored it at creation (docs/platform.md §Sandbox acceleration).
  const session = server.store.session();
  const held = (await session.get('tenders', tender.id))!;
  const doc = held.doc as ObjectDoc;
  await session.commit([updateOf(held, { ...doc, data: { ...doc.data, procurementMethodDetails: 'quick, accelerator=1440' } })]);
  await activate(tender);
  const award = (await postAward(tender, awardBody(tender.data.lots[0].id))).body.data;
  const { complaintPeriod } = (await patchAward(tender, award.id, { status: 'active', qualified: true })).body.data;
  t.equal(Date.parse(complaintPeriod.endDate) - Date.parse(complaintPeriod.startDate), (5 * DAY) / 1440, '5 days / 1440 = 5 minutes');
  const contractId = (await read(tender)).contracts[0].id;
  const sign = () =>
    server.request('PATCH', `/api/2.5/contracts/${contractId}`, {
      key: 'broker',
      token: tender.token,
      body: { data: { status: 'active' } },
    });
  t.equal((await sign()).status, 403);
  server.clock.advance((5 * DAY) / 1440 + 1000);
  t.equal((await sign()).status, 200);
  t.equal((await read(tender)).status, 'complete');
  server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
});

t.test('a negotiation planned as one is made from its plan, which it completes', async (t) => {
  const { data, config } = creation('negotiation').requestBody;
  const { contactPoint: _c, signerInfo: _s, ...buyer } = data.procuringEntity;
  const plan = await createPlan(
    server,
    aPlan({
      tender: {
        procurementMethod: 'limited',
        procurementMethodType: 'negotiation',
        tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
      },
      classification: data.items[0].classification,
      items: [{ ...anItem(), classification: data.items[0].classification }],
      procuringEntity: buyer,
      buyers: [buyer],
    }),
  );
  const res = await server.request('POST', `/api/2.5/plans/${plan.id}/tenders`, { key: 'broker', body: { data, config } });
  t.equal(res.status, 201, res.text);
  t.match(res.body.data, { procurementMethodType: 'negotiation', plans: [{ id: plan.id }] });
  t.match((await server.request('GET', `/api/2.5/plans/${plan.id}`)).body.data, { status: 'complete', tender_id: res.body.data.id });
});
