import t from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aPlan, createPlan, planOrganization } from '../../fixtures/plans';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const HOUR = 3_600_000;
const patch = (id: string, token: string | undefined, data: unknown, key = 'broker') =>
  server.request('PATCH', `/api/2.5/plans/${id}`, { key, token, body: { data } });

t.test('the owner schedules a draft plan; members replace the stored ones whole; dateModified moves', async (t) => {
  const plan = await createPlan(server, aPlan({ status: 'draft' }));
  server.clock.advance(HOUR);
  const scheduled = await patch(plan.id, plan.token, { status: 'scheduled' });
  t.equal(scheduled.status, 200, scheduled.text);
  t.match(scheduled.body.data, {
    status: 'scheduled',
    dateModified: '2026-10-05T13:00:00+03:00',
    dateCreated: '2026-10-05T12:00:00+03:00',
  });
  const renamed = await patch(plan.id, plan.token, { procuringEntity: { ...planOrganization(), name: 'Нова назва' } });
  t.equal(renamed.body.data.procuringEntity.name, 'Нова назва');
  t.match(renamed.body.data.procuringEntity.id, /^[0-9a-f]{32}$/);
  const partial = await patch(plan.id, plan.token, { procuringEntity: { name: 'Лише назва' } });
  t.match(partial, error(422, 'body', 'procuringEntity', { identifier: ['This field is required.'] }));
  t.same((await server.request('GET', `/api/2.5/plans/${plan.id}`)).body.data, renamed.body.data, 'a refused PATCH stored nothing');
});

t.test('a PATCH that changes nothing keeps dateModified', async (t) => {
  const plan = await createPlan(server);
  server.clock.advance(HOUR);
  const same = await patch(plan.id, plan.token, { status: 'scheduled', classification: plan.data.classification });
  t.same(same.body.data, plan.data);
});

t.test('without the owner token or another broker → 403 url/permission; an unknown plan → 404', async (t) => {
  const plan = await createPlan(server);
  t.match(await patch(plan.id, undefined, { status: 'scheduled' }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch(plan.id, plan.token, { status: 'scheduled' }, 'broker1'), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch(plan.id, 'f'.repeat(32), { status: 'scheduled' }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch('b'.repeat(32), plan.token, { status: 'scheduled' }), error(404, 'url', 'plan_id', 'Not Found'));
});

t.test('a plan never goes back to draft → 422 body/status', async (t) => {
  const plan = await createPlan(server);
  t.match(
    await patch(plan.id, plan.token, { status: 'draft' }),
    error(422, 'body', 'status', "Plan status can not be changed back to 'draft'"),
  );
});

t.test('cancellation: pending first, then active makes the plan cancelled; only its rationale changes afterwards', async (t) => {
  const plan = await createPlan(server, aPlan({ rationale: { description: 'Перше' } }));
  const pending = await patch(plan.id, plan.token, { cancellation: { reason: 'Підстава для скасування', reason_en: 'Reason' } });
  t.match(pending.body.data, {
    status: 'scheduled',
    cancellation: { reason: 'Підстава для скасування', status: 'pending', id: /^[0-9a-f]{32}$/, date: '2026-10-05T12:00:00+03:00' },
  });
  t.match(
    await patch(plan.id, plan.token, { status: 'cancelled' }),
    error(422, 'body', 'status', ['An active cancellation object is required']),
  );
  server.clock.advance(HOUR);
  const cancelled = await patch(plan.id, plan.token, { cancellation: { reason: 'Підстава для скасування', status: 'active' } });
  t.match(cancelled.body.data, { status: 'cancelled', cancellation: { status: 'active', date: '2026-10-05T13:00:00+03:00' } });
  t.not(
    cancelled.body.data.cancellation.id,
    pending.body.data.cancellation.id,
    'a cancellation given whole is a new one, as the reference',
  );
  t.match(
    await patch(plan.id, plan.token, { budget: { ...cancelled.body.data.budget, amount: 20000 } }),
    error(403, 'body', 'data', "Can't update budget in cancelled status"),
  );
  t.match(await patch(plan.id, plan.token, { status: 'scheduled' }), error(403, 'body', 'data', "Can't update status in cancelled status"));
  server.clock.advance(HOUR);
  const explained = await patch(plan.id, plan.token, { rationale: { description: 'Друге' } });
  t.equal(explained.status, 200, explained.text);
  t.same(explained.body.data.rationale, { description: 'Друге', date: '2026-10-05T14:00:00+03:00' });
});

t.test('rationale keeps its date while its description stays', async (t) => {
  const plan = await createPlan(server, aPlan({ rationale: { description: 'Перше' } }));
  server.clock.advance(HOUR);
  const kept = await patch(plan.id, plan.token, { rationale: { description: 'Перше' }, budget: { ...plan.data.budget, amount: 20000 } });
  t.same(kept.body.data.rationale, { description: 'Перше', date: '2026-10-05T12:00:00+03:00' });
});

t.test('complete by hand: belowThreshold without a tender may; other types may not', async (t) => {
  const plan = await createPlan(server);
  const complete = await patch(plan.id, plan.token, { status: 'complete' });
  t.equal(complete.body.data.status, 'complete');
  t.match(await patch(plan.id, plan.token, { items: [] }), error(403, 'body', 'data', "Can't update items in complete status"));
  const openUa = await createPlan(
    server,
    aPlan({
      tender: {
        procurementMethod: 'open',
        procurementMethodType: 'aboveThresholdUA',
        tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
      },
    }),
  );
  t.match(
    await patch(openUa.id, openUa.token, { status: 'complete' }),
    error(422, 'body', 'status', ["Can't complete plan with 'aboveThresholdUA' tender.procurementMethodType"]),
  );
});

t.test('a change to the defense type the date retired → 422 body/tender', async (t) => {
  const plan = await createPlan(server, aPlan({ procuringEntity: { ...planOrganization(), kind: 'defense' } }));
  const tender = {
    procurementMethod: 'open',
    procurementMethodType: 'aboveThresholdUA.defense',
    tenderPeriod: { startDate: '2026-10-17T00:00:00+03:00' },
  };
  t.match(
    await patch(plan.id, plan.token, { tender }),
    error(
      422,
      'body',
      'tender',
      "Plan tender.procurementMethodType can not be changed from 'belowThreshold' to 'aboveThresholdUA.defense'",
    ),
  );
});

t.test('budget period or year on PATCH follows the time of the PATCH (injected clock)', async (t) => {
  const plan = await createPlan(server);
  t.match(
    await patch(plan.id, plan.token, { budget: { ...plan.data.budget, period: undefined, year: 2026 } }),
    error(422, 'body', 'budget', { year: ["Can't use year field, use period field instead"] }),
  );
});
