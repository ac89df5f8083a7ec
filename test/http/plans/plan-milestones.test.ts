import t from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aPlan, createPlan, planOrganization, type CreatedPlan } from '../../fixtures/plans';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const TITLE = 'Підготовка до проведення процедури';
const HOUR = 3_600_000;
const central = () => ({ ...planOrganization(), identifier: { scheme: 'UA-EDR', id: '111111', legalName: 'ЦЗО №1' }, kind: 'central' });
/** A central purchasing body's plan, its tender period starting a week after "now". */
const centralPlan = () =>
  createPlan(
    server,
    aPlan({
      procuringEntity: central(),
      tender: {
        procurementMethod: '',
        procurementMethodType: 'centralizedProcurement',
        tenderPeriod: { startDate: '2026-10-12T12:00:00+03:00' },
      },
    }),
  );
const aMilestone = (overrides: Record<string, unknown> = {}) => ({
  title: TITLE,
  type: 'approval',
  author: central(),
  dueDate: '2026-10-08T12:00:00+03:00',
  ...overrides,
});
const post = (plan: CreatedPlan, data: unknown, key = 'broker') =>
  server.request('POST', `/api/2.5/plans/${plan.id}/milestones`, { key, body: { data } });
const patch = (plan: CreatedPlan, id: string, token: string | undefined, data: unknown, key = 'broker') =>
  server.request('PATCH', `/api/2.5/plans/${plan.id}/milestones/${id}`, { key, token, body: { data } });

t.test("the procuring entity's broker adds an approval milestone → 201 scheduled, its own token, on the plan", async (t) => {
  const plan = await centralPlan();
  const res = await post(plan, aMilestone(), 'broker1');
  t.equal(res.status, 201, res.text);
  const m = res.body.data;
  t.equal(res.headers.get('location'), `${server.url}/api/2.5/plans/${plan.id}/milestones/${m.id}`);
  t.match(m, {
    id: /^[0-9a-f]{32}$/,
    status: 'scheduled',
    title: TITLE,
    type: 'approval',
    owner: 'broker1',
    dateModified: '2026-10-05T12:00:00+03:00',
    author: { id: /^[0-9a-f]{32}$/ },
  });
  t.match(m.description, /^Узагальнення та аналіз/);
  t.same(Object.keys(res.body.access), ['token']);
  t.same((await server.request('GET', `/api/2.5/plans/${plan.id}`)).body.data.milestones, [m]);
  t.same((await server.request('GET', `/api/2.5/plans/${plan.id}/milestones/${m.id}`)).body.data, m);
  t.match(
    await server.request('GET', `/api/2.5/plans/${plan.id}/milestones/${'d'.repeat(32)}`),
    error(404, 'url', 'milestone_id', 'Not Found'),
  );
});

t.test('refusals: another author, a second active one, a status other than scheduled, no key', async (t) => {
  const plan = await centralPlan();
  t.match(await post(plan, aMilestone({ author: planOrganization() })), error(422, 'body', 'author', 'Should match plan.procuringEntity'));
  t.match(await post(plan, aMilestone({ status: 'met' })), error(422, 'body', 'status', 'Cannot create milestone with status: met'));
  t.equal((await post(plan, aMilestone())).status, 201);
  t.match(await post(plan, aMilestone()), error(422, 'body', 'author', 'An active milestone already exists for this author'));
  t.match(
    await server.request('POST', `/api/2.5/plans/${plan.id}/milestones`, { body: { data: aMilestone() } }),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  const done = await createPlan(server, aPlan({ procuringEntity: central(), status: 'complete' }));
  t.match(await post(done, aMilestone()), error(403, 'body', 'data', "Can't update milestones in complete status"));
});

t.test('the milestone owner meets it (dateMet); later moves and edits are refused as the reference', async (t) => {
  const plan = await centralPlan();
  const created = await post(plan, aMilestone(), 'broker1');
  const { id } = created.body.data;
  const token = created.body.access.token;
  t.match(await patch(plan, id, token, { status: 'met' }, 'broker'), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch(plan, id, plan.token, { status: 'met' }, 'broker1'), error(403, 'url', 'permission', 'Forbidden'));
  server.clock.advance(HOUR);
  const met = await patch(
    plan,
    id,
    token,
    { status: 'met', description: 'Доповнений опис', dueDate: '2026-10-09T12:00:00+03:00' },
    'broker1',
  );
  t.equal(met.status, 200, met.text);
  t.match(met.body.data, {
    status: 'met',
    description: 'Доповнений опис',
    dateMet: '2026-10-05T13:00:00+03:00',
    dateModified: '2026-10-05T13:00:00+03:00',
  });
  t.equal((await server.request('GET', `/api/2.5/plans/${plan.id}`)).body.data.dateModified, '2026-10-05T13:00:00+03:00');
  t.match(
    await patch(plan, id, token, { dueDate: '2026-10-10T12:00:00+03:00' }, 'broker1'),
    error(403, 'body', 'data', "Can't update dueDate at 'met' milestone status"),
  );
  t.match(
    await patch(plan, id, token, { status: 'notMet' }, 'broker1'),
    error(403, 'body', 'data', "Can't update milestone status from 'met' to 'notMet'"),
  );
  t.match(
    await server.request('PATCH', `/api/2.5/plans/${plan.id}`, { key: 'broker', token: plan.token, body: { data: { milestones: [] } } }),
    error(422, 'body', 'milestones', 'Rogue field'),
  );
});

t.test('a new procuring entity invalidates active milestones, and is refused within 2 business days of the tender period', async (t) => {
  const plan = await centralPlan();
  await post(plan, aMilestone());
  const other = { ...central(), identifier: { scheme: 'UA-EDR', id: '222222' } };
  const changed = await server.request('PATCH', `/api/2.5/plans/${plan.id}`, {
    key: 'broker',
    token: plan.token,
    body: { data: { procuringEntity: other } },
  });
  t.equal(changed.status, 200, changed.text);
  t.match(changed.body.data.milestones, [{ status: 'invalid', dateModified: '2026-10-05T12:00:00+03:00' }]);
  const late = await centralPlan();
  await post(late, aMilestone());
  server.clock.set(new Date('2026-10-09T12:00:00+03:00'));
  const refused = await server.request('PATCH', `/api/2.5/plans/${late.id}`, {
    key: 'broker',
    token: late.token,
    body: { data: { procuringEntity: other } },
  });
  t.match(refused, error(403, 'body', 'data', "Can't update procuringEntity later than 2 business days before tenderPeriod.StartDate"));
});
