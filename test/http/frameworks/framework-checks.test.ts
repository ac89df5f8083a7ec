import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { applyChecks } from '../../../src/domain/kind-checks';
import { aTenderer, activeFramework, activeSubmission, decideQualification, err } from '../../fixtures/frameworks';

/** Runs the registered check of an object as the worker does, at the clock's now. */
async function check(server: TestServer, kind: 'frameworks' | 'agreements', id: string) {
  const session = server.store.session();
  return applyChecks(session, (await session.get(kind, id))!, server.clock.now());
}

const at = (iso: string) => new Date(iso);

t.test('fewer than 3 submissions at period start + 15 days → unsuccessful, its agreement terminated', async (t) => {
  const server = await startTestServer({ now: at('2027-01-01T00:00:00+02:00') });
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const s = await activeSubmission(server, framework.id);
  await decideQualification(server, framework, s.qualificationID, 'active');
  server.clock.set(at('2027-01-15T23:59:59+02:00'));
  t.equal((await check(server, 'frameworks', framework.id)).applied, false, 'not due before 2027-01-16');
  server.clock.set(at('2027-01-16T00:00:00+02:00'));
  t.equal((await check(server, 'frameworks', framework.id)).applied, true);
  const f = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data;
  t.match(f, { status: 'unsuccessful', dateModified: '2027-01-16T00:00:00+02:00' });
  t.notOk('next_check' in f, 'no next_check once unsuccessful');
  const a = (await server.request('GET', `/api/2.5/agreements/${f.agreementID}`)).body.data;
  t.match(a, { status: 'terminated', terminationDetails: 'Відмінено електронною системою через недостатню кількість заявок' });
  const q = await server.request('PATCH', `/api/2.5/qualifications/${s.qualificationID}`, {
    key: 'broker',
    token: framework.token,
    body: { data: { status: 'active' } },
  });
  t.equal(q.status, 403, 'a decided qualification stays decided');
});

t.test(
  '3 submissions → successful, next_check moves to the qualification period end, then complete; the agreement ends with its period',
  async (t) => {
    const server = await startTestServer({ now: at('2027-01-01T00:00:00+02:00') });
    t.teardown(() => server.close());
    const framework = await activeFramework(server);
    const submissions = [];
    for (const [i, key] of (['broker1', 'broker2', 'broker3'] as const).entries()) {
      submissions.push(await activeSubmission(server, framework.id, { key, tenderer: aTenderer(`0000000${i}`) }));
    }
    server.clock.set(at('2027-01-16T00:00:00+02:00'));
    await check(server, 'frameworks', framework.id);
    let f = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data;
    t.equal(f.status, 'active');
    t.equal(Date.parse(f.next_check), Date.parse(f.qualificationPeriod.endDate));
    await decideQualification(server, framework, submissions[0].qualificationID, 'active');
    const end = new Date(Date.parse(f.qualificationPeriod.endDate));
    server.clock.set(end);
    await check(server, 'frameworks', framework.id);
    f = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data;
    t.equal(f.status, 'complete');
    const late = await server.request('PATCH', `/api/2.5/qualifications/${submissions[1].qualificationID}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { status: 'active' } },
    });
    t.same([late.status, late.body], [403, err('body', 'data', "Can't update qualification in current (complete) framework status")]);
    const agreementBefore = (await server.request('GET', `/api/2.5/agreements/${f.agreementID}`)).body.data;
    t.equal(Date.parse(agreementBefore.next_check), end.getTime());
    await check(server, 'agreements', f.agreementID);
    const agreement = (await server.request('GET', `/api/2.5/agreements/${f.agreementID}`)).body.data;
    t.equal(agreement.status, 'terminated');
    t.equal(agreement.contracts[0].status, 'active', 'contracts keep their statuses');
    t.notOk('next_check' in agreement);
  },
);
