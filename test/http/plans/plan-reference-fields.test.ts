import t from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aPlan, createPlan, planOrganization } from '../../fixtures/plans';
import { aLot, aTender, activateDraft, anItem, belowThresholdConfig } from '../../fixtures/tenders';

/** docs/plans.md §Fields, docs/tenders.md §Minimal step: a broker's plan and tender written for the reference 1.0.274. */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

/** The signer as the reference's planning tutorial gives it (`create-plan.http`). */
const aSigner = (overrides: Record<string, unknown> = {}) => ({
  name: 'Test Testovich',
  email: 'example@email.com',
  telephone: '+380950000000',
  iban: '111111111111111',
  position: 'Генеральний директор',
  authorizedBy: 'Статут компанії',
  ...overrides,
});
const aProject = () => ({ title: 'DREAMs come true', uri: 'https://dream.gov.ua/ua/project/DREAM-UA-030524-EE48E08C/profile' });
const signed = (signer: unknown = aSigner()) => ({ ...planOrganization(), signerInfo: signer });

const post = (data: unknown) => server.request('POST', '/api/2.5/plans', { key: 'broker', body: { data } });
const get = async (id: string) => (await server.request('GET', `/api/2.5/plans/${id}`)).body;
const patch = (plan: { id: string; token: string }, data: unknown) =>
  server.request('PATCH', `/api/2.5/plans/${plan.id}`, { key: 'broker', token: plan.token, body: { data } });

t.test('a plan with signerInfo and project → 201, kept and shown as sent', async (t) => {
  const res = await post(aPlan({ procuringEntity: signed(), buyers: [signed()], project: aProject() }));
  t.equal(res.status, 201, res.text);
  t.same(res.body.data.procuringEntity.signerInfo, aSigner());
  t.same(res.body.data.buyers[0].signerInfo, aSigner());
  t.same(res.body.data.project, aProject());
  t.same((await get(res.body.data.id)).data, res.body.data, 'read back the same');
});

t.test('a PATCH adds or replaces them', async (t) => {
  const plan = await createPlan(server);
  const res = await patch(plan, { project: { id: 'DREAM-1', ...aProject() }, buyers: [signed()] });
  t.equal(res.status, 200, res.text);
  t.same(res.body.data.project, { id: 'DREAM-1', ...aProject() });
  t.same(res.body.data.buyers[0].signerInfo, aSigner());
});

t.test('bad signerInfo and project are refused with the reference texts, nothing stored', async (t) => {
  const plan = await createPlan(server);
  const cases: [string, Record<string, unknown>, unknown][] = [
    [
      'a signer without iban',
      { procuringEntity: signed(aSigner({ iban: undefined })) },
      error(422, 'body', 'procuringEntity', { signerInfo: { iban: ['This field is required.'] } }),
    ],
    [
      'an iban too short',
      { buyers: [signed(aSigner({ iban: 'UA12' }))] },
      error(422, 'body', 'buyers', [{ signerInfo: { iban: ['String value is too short.'] } }]),
    ],
    [
      'a bad email',
      { procuringEntity: signed(aSigner({ email: 'nobody' })) },
      error(422, 'body', 'procuringEntity', { signerInfo: { email: ['Not a well-formed email address.'] } }),
    ],
    [
      'a signer member the reference does not have',
      { procuringEntity: signed(aSigner({ seal: 'x' })) },
      error(422, 'body', 'procuringEntity', { signerInfo: { seal: 'Rogue field' } }),
    ],
    ['a project without uri', { project: { title: 'DREAM' } }, error(422, 'body', 'project', { uri: ['This field is required.'] })],
    [
      'a project uri that is no web address',
      { project: { ...aProject(), uri: 'javascript:alert(1)' } },
      error(422, 'body', 'project', { uri: ['Not a well formed URL.'] }),
    ],
    [
      'a project that is no object',
      { project: 'DREAM' },
      error(422, 'body', 'project', ['Please use a mapping for this field or Project instance instead of str.']),
    ],
    [
      'a project member the reference does not have',
      { project: { ...aProject(), name: 'x' } },
      error(422, 'body', 'project', { name: 'Rogue field' }),
    ],
  ];
  for (const [name, data, expected] of cases) {
    await t.test(name, async (t) => {
      const before = await get(plan.id);
      t.match(await patch(plan, data), expected, 'PATCH refused');
      t.match(await post(aPlan(data)), expected, 'POST refused');
      t.same(await get(plan.id), before, 'the plan is unchanged');
    });
  }
});

t.test('a tender from a plan, with lots and without a tender-level minimalStep → 201, and it activates', async (t) => {
  const plan = await createPlan(server, aPlan({ procuringEntity: signed(), buyers: [signed()], project: aProject() }));
  const lot = 'e'.repeat(32);
  const { minimalStep: _step, ...data } = aTender({ lots: [aLot({ id: lot })], items: [anItem({ relatedLot: lot })] });
  const res = await server.request('POST', `/api/2.5/plans/${plan.id}/tenders`, {
    key: 'broker',
    body: { data, config: belowThresholdConfig() },
  });
  t.equal(res.status, 201, res.text);
  t.notOk('minimalStep' in res.body.data, 'no tender-level step is made up');
  t.match(res.body.data.lots, [{ minimalStep: { amount: 15, currency: 'UAH' } }]);
  const active = await activateDraft(
    server,
    { id: res.body.data.id, token: res.body.access.token, data: res.body.data, config: {} },
    'active.enquiries',
  );
  t.equal(active.body.data.status, 'active.enquiries');
});

t.test('without lots a tender still needs its minimalStep; a lot still needs its own', async (t) => {
  const plan = await createPlan(server);
  const { minimalStep: _step, ...data } = aTender();
  const res = await server.request('POST', `/api/2.5/plans/${plan.id}/tenders`, {
    key: 'broker',
    body: { data, config: belowThresholdConfig() },
  });
  t.match(res, error(422, 'body', 'minimalStep', ['This field is required.']));
  const lot = 'e'.repeat(32);
  const { minimalStep: _lotStep, ...bareLot } = aLot({ id: lot });
  const noLotStep = await server.request('POST', `/api/2.5/plans/${plan.id}/tenders`, {
    key: 'broker',
    body: { data: { ...data, lots: [bareLot], items: [anItem({ relatedLot: lot })] }, config: belowThresholdConfig() },
  });
  t.match(noLotStep, error(422, 'body', 'minimalStep', ['This field is required.']));
  t.equal((await get(plan.id)).data.status, 'scheduled', 'the plan has no tender');
});
