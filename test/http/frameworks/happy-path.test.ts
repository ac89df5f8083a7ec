import t from 'tap';
import { startTestServer } from '../../fixtures/server';
import { DAY, aQuestion, aTenderer, activeFramework, activeSubmission, decideQualification, storedDoc } from '../../fixtures/frameworks';

t.test('framework → question → two submissions from two brokers → qualifications → agreement with two contracts', async (t) => {
  const server = await startTestServer({ now: new Date('2027-01-01T00:00:00+02:00') });
  t.teardown(() => server.close());
  const framework = await activeFramework(server);

  const asked = await server.request('POST', `/api/2.5/frameworks/${framework.id}/questions`, {
    key: 'broker3',
    body: { data: aQuestion() },
  });
  t.equal(asked.status, 201);
  t.match(asked.headers.get('location'), new RegExp(`/api/2.5/frameworks/${framework.id}/questions/${asked.body.data.id}$`));
  t.same(asked.body.data.author, aQuestion().author, 'the author is the full organization (spec)');
  const answered = await server.request('PATCH', `/api/2.5/frameworks/${framework.id}/questions/${asked.body.data.id}`, {
    key: 'broker',
    token: framework.token,
    body: { data: { answer: 'Таблицю додано в файлі' } },
  });
  t.equal(answered.status, 200);
  t.equal(answered.body.data.dateAnswered, '2027-01-01T00:00:00+02:00');

  server.clock.set(new Date('2027-01-17T00:00:00+02:00'));
  const first = await activeSubmission(server, framework.id, { key: 'broker1', tenderer: aTenderer('00137256') });
  const second = await activeSubmission(server, framework.id, { key: 'broker2', tenderer: aTenderer('00137257') });
  t.match(first.reply.body.data, {
    status: 'active',
    datePublished: '2027-01-17T00:00:00+02:00',
    submissionType: 'dynamicPurchasingSystem',
  });

  const q1 = await server.request('GET', `/api/2.5/qualifications/${first.qualificationID}`);
  t.same(q1.body, {
    data: {
      frameworkID: framework.id,
      submissionID: first.id,
      qualificationType: 'dynamicPurchasingSystem',
      status: 'pending',
      date: '2027-01-17T00:00:00+02:00',
      dateModified: '2027-01-17T00:00:00+02:00',
      id: first.qualificationID,
    },
    config: { restricted: false, qualificationComplainDuration: 0 },
  });

  const decided1 = await decideQualification(server, framework, first.qualificationID, 'active');
  t.equal(decided1.body.data.status, 'active');
  server.clock.advance(DAY);
  await decideQualification(server, framework, second.qualificationID, 'active');

  const f = await server.request('GET', `/api/2.5/frameworks/${framework.id}`);
  const agreement = await server.request('GET', `/api/2.5/agreements/${f.body.data.agreementID}`);
  t.equal(agreement.status, 200);
  t.match(agreement.body.data, {
    agreementID: 'UA-2027-01-17-000001',
    frameworkID: framework.id,
    agreementType: 'dynamicPurchasingSystem',
    status: 'active',
    period: { startDate: '2027-01-17T00:00:00+02:00', endDate: f.body.data.qualificationPeriod.endDate },
    owner: 'broker',
  });
  t.same(
    agreement.body.data.contracts.map((c: any) => [c.qualificationID, c.submissionID, c.status, c.suppliers[0].identifier.id]),
    [
      [first.qualificationID, first.id, 'active', '00137256'],
      [second.qualificationID, second.id, 'active', '00137257'],
    ],
  );
  for (const s of [first, second]) t.equal((await storedDoc(server, 'submissions', s.id))!.data.status, 'complete');
  const feed = await server.request('GET', '/api/2.5/agreements?opt_fields=status');
  t.same(
    feed.body.data.map((e: any) => [e.id, e.status]),
    [[f.body.data.agreementID, 'active']],
  );
});
