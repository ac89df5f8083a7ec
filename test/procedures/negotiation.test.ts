import t, { type Test } from 'tap';
import { ocdsSchemasPresent, releasePackageValidator } from '../fixtures/ocds';
import { readRecording } from '../fixtures/reference-recording';
import { errorReply, startTestServer, type TestServer } from '../fixtures/server';
import type { Created } from '../fixtures/tenders';

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
