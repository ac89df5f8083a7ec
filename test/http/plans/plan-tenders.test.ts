import t from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aBudget, aPlan, createPlan, planOrganization } from '../../fixtures/plans';
import { aTender, anItem, belowThresholdConfig, procuringEntity } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const fromPlan = (planId: string, data: unknown, key = 'broker') =>
  server.request('POST', `/api/2.5/plans/${planId}/tenders`, { ...(key ? { key } : {}), body: { data, config: belowThresholdConfig() } });
const getPlan = async (id: string) => (await server.request('GET', `/api/2.5/plans/${id}`)).body.data;

t.test(
  'a broker creates a tender from a scheduled plan → 201 draft tender with plans[]; the plan gets tender_id and is complete',
  async (t) => {
    const plan = await createPlan(server);
    server.clock.advance(60_000);
    const res = await fromPlan(plan.id, aTender());
    t.equal(res.status, 201, res.text);
    const tender = res.body.data;
    t.equal(res.headers.get('location'), `${server.url}/api/2.5/tenders/${tender.id}`);
    t.match(tender, { status: 'draft', tenderID: /^UA-2026-10-05-\d{6}-a$/, plans: [{ id: plan.id }] });
    t.match(res.body.access, { token: /^[0-9a-f]{32}$/ });
    t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.plans, [{ id: plan.id }]);
    const linked = await getPlan(plan.id);
    t.match(linked, { status: 'complete', tender_id: tender.id, dateModified: '2026-10-05T12:01:00+03:00' });
    t.match(await fromPlan(plan.id, aTender()), error(422, 'body', 'status', "Can't create tender in 'complete' plan status"));
  },
);

t.test('the tender owner may not PATCH plans[] → 422 Rogue field', async (t) => {
  const plan = await createPlan(server);
  const res = await fromPlan(plan.id, aTender());
  const patched = await server.request('PATCH', `/api/2.5/tenders/${res.body.data.id}`, {
    key: 'broker',
    token: res.body.access.token,
    body: { data: { plans: [{ id: plan.id }] } },
  });
  t.match(patched, error(422, 'body', 'plans', 'Rogue field'));
});

t.test('GET /plans/{id}/tenders → 405 url/method; unknown plan → 404 plan_id; no broker key → 403', async (t) => {
  const plan = await createPlan(server);
  t.match(
    await server.request('GET', `/api/2.5/plans/${plan.id}/tenders`, { key: 'broker' }),
    error(405, 'url', 'method', 'Method not allowed'),
  );
  t.match(await fromPlan('a'.repeat(32), {}), error(404, 'url', 'plan_id', 'Not Found'));
  t.match(await fromPlan(plan.id, {}, ''), error(403, 'url', 'permission', 'Forbidden'));
});

t.test('a draft plan, or one that has a tender, gets none → 422', async (t) => {
  const draft = await createPlan(server, aPlan({ status: 'draft' }));
  t.match(await fromPlan(draft.id, aTender()), error(422, 'body', 'status', "Can't create tender in 'draft' plan status"));
  const linked = await createPlan(server, aPlan({ tender_id: 'c'.repeat(32) }));
  t.equal(linked.data.status, 'complete', 'a plan created with tender_id is complete');
  t.match(await fromPlan(linked.id, aTender()), error(422, 'body', 'status', "Can't create tender in 'complete' plan status"));
});

t.test("procedure checks: a first-stage type (403), the plan's type (422)", async (t) => {
  const plan = await createPlan(server);
  const empty = await fromPlan(plan.id, {});
  t.equal(empty.status, 403);
  t.equal(empty.body.errors[0].name, 'procurementMethodType');
  t.match(empty.body.errors[0].description, /^Should be one of the first stage values: \{'belowThreshold', .*'competitiveOrdering'\}$/);
  t.match(
    await fromPlan(plan.id, aTender({ procurementMethodType: 'aboveThresholdEU' })),
    error(422, 'body', 'procurementMethodType', "procurementMethodType doesn't match: belowThreshold != aboveThresholdEU"),
  );
});

t.test("content checks: the buyer identifier and the items' CPV group must be the plan's → 422, all errors at once", async (t) => {
  const plan = await createPlan(server);
  const other = { ...procuringEntity(), identifier: { scheme: 'UA-EDR', id: '911' } };
  const res = await fromPlan(
    plan.id,
    aTender({
      procuringEntity: other,
      items: [anItem(), anItem({ classification: { scheme: 'ДК021', id: '03111600-8', description: 'seeds' } })],
    }),
  );
  t.equal(res.status, 422);
  t.same(res.body.errors, [
    { location: 'body', name: 'procuringEntity', description: "procuringEntity.identifier doesn't match: UA-EDR 00037256 != UA-EDR 911" },
    {
      location: 'body',
      name: 'items[1].classification.id',
      description: "Plan classification.id 44617000-8 and item's 03111600-8 should be of the same group 4461",
    },
  ]);
});

t.test('a plan without a budget breakdown gets no tender → 422 budget.breakdown', async (t) => {
  const plan = await createPlan(server, aPlan({ budget: aBudget({ breakdown: undefined }) }));
  t.match(await fromPlan(plan.id, aTender()), error(422, 'body', 'budget.breakdown', 'Plan should contain budget breakdown'));
});

t.test("a centralizedProcurement plan takes any first-stage type; the central body's plan matches its buyer", async (t) => {
  const central = {
    procurementMethod: '',
    procurementMethodType: 'centralizedProcurement',
    tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
  };
  const cpb = { ...planOrganization(), identifier: { scheme: 'UA-EDR', id: '01101100' }, kind: 'central' };
  const plan = await createPlan(server, aPlan({ tender: central, procuringEntity: cpb }));
  const res = await fromPlan(plan.id, aTender());
  t.equal(res.status, 201, res.text);
});

t.test("the tender's own refusals come through, and leave the plan as it was (spec: CPV 336 INN message)", async (t) => {
  const cls = (code: string) => ({ scheme: 'ДК021', id: code, description: 'x' });
  const plan = await createPlan(server, aPlan({ classification: cls('33600000-6'), items: [] }));
  const res = await fromPlan(plan.id, aTender({ items: [anItem({ classification: cls('33600000-6'), additionalClassifications: [] })] }));
  t.match(
    res,
    error(422, 'body', 'items', [
      'Item with classification.id=33600000-6 have to contain exactly one additionalClassifications with scheme=INN',
    ]),
  );
  t.same(await getPlan(plan.id), plan.data);
  const innItem = anItem({
    classification: cls('33600000-6'),
    additionalClassifications: [{ scheme: 'INN', id: '17.21.1', description: 'x' }],
  });
  t.match(
    await fromPlan(plan.id, aTender({ title: undefined, items: [innItem] })),
    error(422, 'body', 'title', ['This field is required.']),
  );
  t.same(await getPlan(plan.id), plan.data);
});
