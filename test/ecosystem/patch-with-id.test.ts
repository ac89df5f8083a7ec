import t, { type Test } from 'tap';
import { aFramework, aQuestion, aTenderer, createSubmission } from '../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../fixtures/server';
import { aBid, aContract, createLottedTender, tenderAfterTendering, tenderInTendering } from '../fixtures/tenders';
import { decision, tenderInQualification } from '../fixtures/awards';
import { activeTender, aCancellation, postCancellation } from '../fixtures/cancellations';
import { aPlan, createPlan, planOrganization } from '../fixtures/plans';
import { ReferenceClient } from './reference-client';

/**
 * The reference's Python client builds each PATCH body from the object it holds, so `data.id` is always there
 * (docs/platform.md §PATCH bodies). Every PATCH route is replayed in that shape: the object's own id is ignored,
 * another id is `422 Rogue field`.
 */
/** The server the replays go to: the shared one, or a test's own. */
let server: TestServer;
const clients = new Map<string, ReferenceClient>();
t.before(async () => {
  server = await startTestServer();
  const shared = server;
  t.teardown(() => shared.close());
});

async function client(key: string): Promise<ReferenceClient> {
  let c = clients.get(key);
  if (!c) {
    c = new ReferenceClient(server.url, key, 'tenders');
    await c.open();
    clients.set(key, c);
  }
  return c;
}

/** The client's PATCH: `payload=dumps({"data": obj})` with the owner token in `X-Access-Token`. */
async function clientPatch(key: string, path: string, data: Record<string, unknown>, token?: string) {
  return (await client(key)).request('PATCH', `${server.url}${path}`, {
    payload: JSON.stringify({ data }),
    headers: token ? { 'X-Access-Token': token } : {},
  });
}

const ok = async (reply: Promise<{ status: number; body: any }>) => {
  const r = await reply;
  if (r.status >= 300) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** Replays `data` with a foreign id (refused) and with the object's own id (accepted); answers the object. */
async function replay(t: Test, key: string, path: string, id: string, data: Record<string, unknown>, token?: string) {
  const foreign = await clientPatch(key, path, { ...data, id: 'f'.repeat(32) }, token);
  t.match(foreign, error(422, 'body', 'id', 'Rogue field'), `${path}: another id is a rogue field`);
  const own = await clientPatch(key, path, { ...data, id }, token);
  t.equal(own.status, 200, `${path}: ${JSON.stringify(own.body)}`);
  t.equal(own.body.data.id, id);
  return own.body.data;
}

const world: Record<string, { id: string; token: string }> = {};

t.test('frameworks: PATCH /frameworks/{id} with its own id activates it', async (t) => {
  const created = await ok(
    server.request('POST', '/api/2.5/frameworks', { key: 'broker', body: { data: aFramework(server.clock.now()) } }),
  );
  world.framework = { id: created.data.id, token: created.access.token };
  const path = `/api/2.5/frameworks/${world.framework.id}`;
  const edited = await replay(t, 'broker', path, world.framework.id, { title: 'нова назва' }, world.framework.token);
  t.equal(edited.title, 'нова назва');
  const active = await clientPatch('broker', path, { id: world.framework.id, status: 'active' }, world.framework.token);
  t.equal(active.body.data.status, 'active');
});

t.test('framework questions: the answer with the question id', async (t) => {
  const asked = await ok(
    server.request('POST', `/api/2.5/frameworks/${world.framework.id}/questions`, { key: 'broker2', body: { data: aQuestion() } }),
  );
  const answered = await replay(
    t,
    'broker',
    `/api/2.5/frameworks/${world.framework.id}/questions/${asked.data.id}`,
    asked.data.id,
    { answer: 'Так' },
    world.framework.token,
  );
  t.equal(answered.answer, 'Так');
});

t.test('submissions and qualifications: activated and decided with their ids', async (t) => {
  const submission = await createSubmission(server, world.framework.id, { tenderer: aTenderer() });
  const active = await replay(t, 'broker1', `/api/2.5/submissions/${submission.id}`, submission.id, { status: 'active' }, submission.token);
  const qualificationId = active.qualificationID as string;
  const decided = await replay(
    t,
    'broker',
    `/api/2.5/qualifications/${qualificationId}`,
    qualificationId,
    { status: 'active' },
    world.framework.token,
  );
  t.equal(decided.status, 'active');
});

t.test('agreement milestones: the activation milestone met with its id', async (t) => {
  const agreementId = (await server.request('GET', `/api/2.5/frameworks/${world.framework.id}`)).body.data.agreementID;
  const [contract] = (await server.request('GET', `/api/2.5/agreements/${agreementId}/contracts`)).body.data;
  const [milestone] = contract.milestones;
  const path = `/api/2.5/agreements/${agreementId}/contracts/${contract.id}/milestones/${milestone.id}`;
  const met = await replay(t, 'broker', path, milestone.id, { status: 'met' }, world.framework.token);
  t.equal(met.status, 'met');
});

t.test('tenders, lots and tender questions: changed with their ids', async (t) => {
  const tender = await createLottedTender(server);
  world.tender = tender;
  const tenderPath = `/api/2.5/tenders/${tender.id}`;
  t.equal((await replay(t, 'broker', tenderPath, tender.id, { title: 'нова назва' }, tender.token)).title, 'нова назва');
  const [lot] = tender.data.lots;
  t.equal((await replay(t, 'broker', `${tenderPath}/lots/${lot.id}`, lot.id, { title: 'лот 1' }, tender.token)).title, 'лот 1');
  await ok(clientPatch('broker', tenderPath, { id: tender.id, status: 'active.enquiries' }, tender.token));
  const asked = await ok(server.request('POST', `${tenderPath}/questions`, { key: 'broker1', body: { data: aQuestion() } }));
  const answered = await replay(t, 'broker', `${tenderPath}/questions/${asked.data.id}`, asked.data.id, { answer: 'Так' }, tender.token);
  t.equal(answered.answer, 'Так');
});

t.test('chronograph: its own body shape is the tender id', async (t) => {
  const reply = await clientPatch('chronograph', `/api/2.5/tenders/${world.tender.id}/chronograph`, { id: world.tender.id });
  t.equal(reply.status, 200);
  t.equal(reply.body.data.id, world.tender.id);
});

t.test('contracts and contract changes: changed with their ids', async (t) => {
  const created = await ok(
    server.request('POST', '/api/2.5/contracts', { key: 'contracting', body: { data: aContract(world.tender.id) } }),
  );
  const contract = { id: created.data.id as string, token: created.access.token as string };
  const path = `/api/2.5/contracts/${contract.id}`;
  const active = await replay(
    t,
    'broker',
    path,
    contract.id,
    { status: 'active', dateSigned: '2026-10-01T00:00:00+03:00' },
    contract.token,
  );
  t.equal(active.status, 'active');
  const change = await ok(
    server.request('POST', `${path}/changes`, {
      key: 'broker',
      token: contract.token,
      body: { data: { rationale: 'причина', rationaleTypes: ['volumeCuts'] } },
    }),
  );
  const edited = await replay(
    t,
    'broker',
    `${path}/changes/${change.data.id}`,
    change.data.id,
    { rationale: 'інша причина' },
    contract.token,
  );
  t.equal(edited.rationale, 'інша причина');
});

t.test('plans and plan milestones: changed with their ids', async (t) => {
  const central = { ...planOrganization(), identifier: { scheme: 'UA-EDR', id: '111111', legalName: 'ЦЗО №1' }, kind: 'central' };
  const plan = await createPlan(
    server,
    aPlan({
      status: 'draft',
      procuringEntity: central,
      tender: {
        procurementMethod: '',
        procurementMethodType: 'centralizedProcurement',
        tenderPeriod: { startDate: '2026-10-12T12:00:00+03:00' },
      },
    }),
  );
  const scheduled = await replay(t, 'broker', `/api/2.5/plans/${plan.id}`, plan.id, { status: 'scheduled' }, plan.token);
  t.equal(scheduled.status, 'scheduled');
  const milestone = await ok(
    server.request('POST', `/api/2.5/plans/${plan.id}/milestones`, {
      key: 'broker1',
      body: {
        data: { title: 'Підготовка до проведення процедури', type: 'approval', author: central, dueDate: '2026-10-08T12:00:00+03:00' },
      },
    }),
  );
  const path = `/api/2.5/plans/${plan.id}/milestones/${milestone.data.id}`;
  const met = await replay(t, 'broker1', path, milestone.data.id, { status: 'met' }, milestone.access.token);
  t.equal(met.status, 'met');
});

t.test('a POST with an id is not a PATCH: the id stays a rogue field', async (t) => {
  const reply = await server.request('POST', `/api/2.5/tenders/${world.tender.id}/questions`, {
    key: 'broker1',
    body: { data: { ...aQuestion(), id: world.tender.id } },
  });
  t.match(reply, error(422, 'body', 'id', 'Rogue field'));
});

/** The tendering and qualification routes play on their own server: they move its clock. */
async function ownServer(t: Test): Promise<TestServer> {
  const own = await startTestServer();
  t.teardown(() => own.close());
  server = own;
  clients.clear();
  return own;
}

t.test('bids: submitted with the bid id', async (t) => {
  const own = await ownServer(t);
  const tender = await tenderInTendering(own);
  const created = await ok(
    own.request('POST', `/api/2.5/tenders/${tender.id}/bids`, { key: 'broker1', body: { data: aBid(tender, 450) } }),
  );
  const path = `/api/2.5/tenders/${tender.id}/bids/${created.data.id}`;
  const pending = await replay(t, 'broker1', path, created.data.id, { status: 'pending' }, created.access.token);
  t.equal(pending.status, 'pending');
});

t.test('awards: decided with the award id', async (t) => {
  const own = await ownServer(t);
  const { tender, data } = await tenderInQualification(own, { lots: 0 });
  const [award] = data.awards;
  const decided = await replay(
    t,
    'broker',
    `/api/2.5/tenders/${tender.id}/awards/${award.id}`,
    award.id,
    decision('active', true, false),
    tender.token,
  );
  t.equal(decided.status, 'active');
});

t.test('cancellations: changed with the cancellation id', async (t) => {
  const own = await ownServer(t);
  const tender = await activeTender(own, 'belowThreshold');
  const created = await ok(postCancellation(own, tender, aCancellation()));
  const path = `/api/2.5/tenders/${tender.id}/cancellations/${created.data.id}`;
  const changed = await replay(t, 'broker', path, created.data.id, { reasonType: 'unFixable' }, tender.token);
  t.equal(changed.reasonType, 'unFixable');
});

/**
 * The auction's PATCH routes are outside the rule: their bodies (`AuctionUrls`, `LotAuctionUrls`) are not the
 * object the URL names, no client builds them from an object it holds, and the auction module sends no top-level
 * `id` (its `bids[]` and `lots[]` carry their own). The URL's last parameter is the tender's id (`/auction`) or a
 * lot's (`/auction/{lot_id}`); a foreign `id` stays a rogue field, and the module's own shape is accepted.
 */
t.test('auction urls: not a held object, so only the auction module shape; a foreign id is a rogue field', async (t) => {
  const own = await ownServer(t);
  const start = own.clock.now();
  const url = 'https://auction.example.org/x';
  const patch = (path: string, data: unknown) => own.request('PATCH', path, { key: 'auction', body: { data } });
  const { tender: whole, bids } = await tenderAfterTendering(own, { lots: 0 });
  const wholeUrls = { auctionUrl: url, bids: bids.map(() => ({ participationUrl: url })) };
  const auction = `/api/2.5/tenders/${whole.id}/auction`;
  t.match(await patch(auction, { ...wholeUrls, id: 'f'.repeat(32) }), error(422, 'body', 'id', 'Rogue field'));
  t.equal((await patch(auction, wholeUrls)).status, 200);
  own.clock.set(start);
  const { tender: lotted, bids: lotBids } = await tenderAfterTendering(own, { lots: 1 });
  const lotId = lotted.data.lots[0].id as string;
  const lotUrls = { lots: [{ auctionUrl: url }], bids: lotBids.map(() => ({ lotValues: [{ participationUrl: url }] })) };
  const lotAuction = `/api/2.5/tenders/${lotted.id}/auction/${lotId}`;
  t.match(await patch(lotAuction, { ...lotUrls, id: 'f'.repeat(32) }), error(422, 'body', 'id', 'Rogue field'));
  t.equal((await patch(lotAuction, lotUrls)).status, 200);
});
