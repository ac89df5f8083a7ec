import t from 'tap';
import {
  activeSubmission,
  aFramework,
  aTenderer,
  activateFramework,
  createFramework,
  decideQualification,
  storedDoc,
  type Created,
} from '../../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';

/** The DPS tutorial: activated 2027-01-01 with the qualification period ending 2028-02-05, changed on 2027-01-17. */
const ACTIVATED = new Date('2027-01-01T00:00:00+02:00');
const CHANGED = new Date('2027-01-17T00:00:00+02:00');
const NO_DEMAND = 'Відсутня подальша потреба в закупівлі з використанням рамкової угоди';

let server: TestServer;
let framework: Created;
t.before(async () => {
  server = await startTestServer({ now: ACTIVATED });
  framework = await createFramework(server, {
    data: aFramework(ACTIVATED, { qualificationPeriod: { endDate: '2028-02-05T00:00:00+02:00' } }),
  });
  await activateFramework(server, framework);
  server.clock.set(CHANGED);
  const submission = await activeSubmission(server, framework.id, { tenderer: aTenderer('00137256') });
  await decideQualification(server, framework, submission.qualificationID, 'active');
});
t.teardown(() => server.close());

const change = (data: unknown, token = framework.token) =>
  server.request('POST', `/api/2.5/frameworks/${framework.id}/changes`, { key: 'broker', token, body: { data } });
const toEnd = (endDate: string, rationaleType = 'other', rationale = 'Треба подовжити відбір') => ({
  modifications: { qualificationPeriod: { endDate } },
  rationaleType,
  rationale,
});

t.test('refused changes answer the reference errors and store nothing', async (t) => {
  const before = await storedDoc(server, 'frameworks', framework.id);
  const period = 'modifications.qualificationPeriod';
  t.match(
    await change(toEnd('2027-02-01T00:00:00+02:00', 'other', 'Треба закінчити швидше відбір')),
    error(422, 'body', period, "qualificationPeriod.endDate couldn't be less than 30 full calendar days from now"),
  );
  t.match(
    await change(toEnd('2031-02-25T00:00:00+02:00')),
    error(422, 'body', period, "qualificationPeriod.endDate couldn't be more than 1461 full calendar days from now"),
  );
  t.match(
    await change({ ...toEnd('2027-03-08T00:00:00+02:00'), modifications: {} }),
    error(422, 'body', 'modifications', 'Framework modifications are empty'),
  );
  t.match(
    await change({
      ...toEnd('2027-03-08T00:00:00+02:00'),
      modifications: { qualificationPeriod: { startDate: '2027-01-02T00:00:00+02:00', endDate: '2027-03-08T00:00:00+02:00' } },
    }),
    error(422, 'body', period, 'Forbidden to change qualification period start date'),
  );
  t.match(
    await change(toEnd('2028-02-05T00:00:00+02:00')),
    error(422, 'body', 'data', 'No changes detected between framework and current modifications'),
  );
  t.match(
    await change(toEnd('2027-03-08T00:00:00+02:00', 'noDemandFramework', 'інша причина')),
    error(422, 'body', 'rationale', ['Value should be from dictionary `framework_period_change_causes`.']),
  );
  t.match(await change(toEnd('2027-03-08T00:00:00+02:00', 'whim')), { status: 422, body: { errors: [{ name: 'rationaleType' }] } });
  t.match(
    await change({ ...toEnd('2027-03-08T00:00:00+02:00'), rationale: undefined }),
    error(422, 'body', 'rationale', ['This field is required.']),
  );
  t.match(await change(toEnd('2027-03-08T00:00:00+02:00'), 'f'.repeat(32)), error(403, 'url', 'permission', 'Forbidden'));
  t.same(await storedDoc(server, 'frameworks', framework.id), before);
});

t.test(
  'a change moves the qualification end, the framework periods and the agreement with it (patch-framework-active-qualification-period)',
  async (t) => {
    const reply = await change(toEnd('2027-03-08T00:00:00+02:00', 'noDemandFramework', NO_DEMAND));
    t.equal(reply.status, 201, reply.text);
    const created = reply.body.data;
    t.same(created, {
      rationale: NO_DEMAND,
      rationaleType: 'noDemandFramework',
      modifications: { qualificationPeriod: { endDate: '2027-03-08T00:00:00+02:00' } },
      id: created.id,
      previous: { qualificationPeriod: { startDate: '2027-01-01T00:00:00+02:00', endDate: '2028-02-05T00:00:00+02:00' } },
      date: '2027-01-17T00:00:00+02:00',
      dateModified: '2027-01-17T00:00:00+02:00',
    });
    t.equal(reply.headers.get('location'), `${server.url}/api/2.5/frameworks/${framework.id}/changes/${created.id}`);

    // get-framework-after-qualification-period-modified.http
    const after = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data;
    t.match(after, {
      dateModified: '2027-01-17T00:00:00+02:00',
      period: { startDate: '2027-01-01T00:00:00+02:00', endDate: '2027-02-06T00:00:00+02:00' },
      qualificationPeriod: { startDate: '2027-01-01T00:00:00+02:00', endDate: '2027-03-08T00:00:00+02:00' },
      enquiryPeriod: {
        startDate: '2027-01-01T00:00:00+02:00',
        endDate: '2027-01-15T00:00:00+02:00',
        clarificationsUntil: '2027-01-20T00:00:00+02:00',
      },
      next_check: '2027-01-16T00:00:00+02:00',
    });
    t.same(after.changes, [created]);
    t.same((await server.request('GET', `/api/2.5/frameworks/${framework.id}/changes`)).body.data, [created]);
    t.same((await server.request('GET', `/api/2.5/frameworks/${framework.id}/changes/${created.id}`)).body.data, created);
    t.match(
      await server.request('GET', `/api/2.5/frameworks/${framework.id}/changes/${'f'.repeat(32)}`),
      error(404, 'url', 'change_id', 'Not Found'),
    );

    const agreement = (await server.request('GET', `/api/2.5/agreements/${after.agreementID}`)).body.data;
    t.equal(agreement.period.endDate, '2027-03-08T00:00:00+02:00');
    t.equal(agreement.next_check, '2027-03-08T00:00:00+02:00');
    t.same(
      agreement.contracts[0].milestones.map((m: { dueDate: string }) => m.dueDate),
      ['2027-03-08T00:00:00+02:00'],
    );
  },
);

t.test('a framework that is not active takes no change', async (t) => {
  const draft = await createFramework(server);
  const reply = await server.request('POST', `/api/2.5/frameworks/${draft.id}/changes`, {
    key: 'broker',
    token: draft.token,
    body: { data: toEnd('2027-03-08T00:00:00+02:00') },
  });
  t.match(reply, error(403, 'body', 'data', "Can't add change in current (draft) framework status"));
});
