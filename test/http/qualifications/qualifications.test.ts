import t from 'tap';
import { startTestServer } from '../../fixtures/server';
import { activeFramework, activeSubmission, decideQualification, err, storedDoc } from '../../fixtures/frameworks';

t.test('PATCH /qualifications/{id}', async (t) => {
  const server = await startTestServer({ now: new Date('2027-01-17T00:00:00+02:00') });
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const s = await activeSubmission(server, framework.id);
  const path = `/api/2.5/qualifications/${s.qualificationID}`;

  t.test('without the framework token, or with the submission token → 403 permission, nothing stored', async (t) => {
    const before = await storedDoc(server, 'qualifications', s.qualificationID);
    for (const o of [{ key: 'broker' }, { key: 'broker1', token: s.token }, { key: 'broker1', token: framework.token }]) {
      const reply = await server.request('PATCH', path, { ...o, body: { data: { status: 'active' } } });
      t.same([reply.status, reply.body], [403, err('url', 'permission', 'Forbidden')]);
    }
    const bad = await server.request('PATCH', path, { key: 'broker', token: framework.token, body: { data: { status: 'cancelled' } } });
    t.same([bad.status, bad.body], [422, err('body', 'status', ["Value must be one of ['pending', 'active', 'unsuccessful']."])]);
    t.same(await storedDoc(server, 'qualifications', s.qualificationID), before);
    const missing = await server.request('PATCH', `/api/2.5/qualifications/${'f'.repeat(32)}`, {
      key: 'broker',
      token: framework.token,
      body: { data: {} },
    });
    t.same([missing.status, missing.body], [404, err('url', 'qualification_id', 'Not Found')]);
  });

  t.test('unsuccessful → submission complete, no agreement; then frozen', async (t) => {
    const reply = await decideQualification(server, framework, s.qualificationID, 'unsuccessful');
    t.same(reply.body.config, { restricted: false, qualificationComplainDuration: 0 });
    t.equal((await server.request('GET', `/api/2.5/submissions/${s.id}`)).body.data.status, 'complete');
    t.notOk((await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data.agreementID);
    const again = await server.request('PATCH', path, { key: 'broker', token: framework.token, body: { data: { status: 'active' } } });
    t.same([again.status, again.body], [403, err('body', 'data', "Can't update qualification in current (unsuccessful) status")]);
  });

  t.test('the same tenderer may submit again after an unsuccessful qualification', async (t) => {
    const again = await activeSubmission(server, framework.id);
    const reply = await decideQualification(server, framework, again.qualificationID, 'active');
    t.equal(reply.body.data.status, 'active');
    const f = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data;
    t.match(f.agreementID, /^[0-9a-f]{32}$/, 'the framework names the agreement by its id');
    t.equal(f.dateModified, '2027-01-17T00:00:00+02:00');
  });

  t.test('the feed lists qualifications with opt_fields', async (t) => {
    const feed = await server.request('GET', '/api/2.5/qualifications?opt_fields=status,frameworkID,submissionID');
    t.same(feed.body.data.map((e: any) => e.status).sort(), ['active', 'unsuccessful']);
    t.same(Object.keys(feed.body.data[0]).sort(), ['dateModified', 'frameworkID', 'id', 'status', 'submissionID']);
  });
});
