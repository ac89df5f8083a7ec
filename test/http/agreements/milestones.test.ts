import t from 'tap';
import { activeSubmission, aTenderer, activeFramework, decideQualification, storedDoc, type Created } from '../../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';

/** The agreements tutorial (agreements/frameworks/http): qualified on 2023-01-16, banned, lifted 90 days later, terminated. */
const QUALIFIED = new Date('2023-01-16T00:00:00+02:00');

let server: TestServer;
let framework: Created;
let agreementId: string;
let contractIds: string[];
t.before(async () => {
  server = await startTestServer({ now: new Date('2023-01-01T00:00:00+02:00') });
  framework = await activeFramework(server);
  server.clock.set(QUALIFIED);
  for (const id of ['00137256', '00137257']) {
    const submission = await activeSubmission(server, framework.id, { tenderer: aTenderer(id) });
    await decideQualification(server, framework, submission.qualificationID, 'active');
  }
  agreementId = (await server.request('GET', `/api/2.5/frameworks/${framework.id}`)).body.data.agreementID;
  contractIds = (await server.request('GET', `/api/2.5/agreements/${agreementId}`)).body.data.contracts.map((c: { id: string }) => c.id);
});
t.teardown(() => server.close());

const milestones = (contractId: string) => `/api/2.5/agreements/${agreementId}/contracts/${contractId}/milestones`;
const post = (contractId: string, data: unknown, token = framework.token) =>
  server.request('POST', milestones(contractId), { key: 'broker', token, body: { data } });
const patch = (contractId: string, milestoneId: string, data: unknown, token = framework.token) =>
  server.request('PATCH', `${milestones(contractId)}/${milestoneId}`, { key: 'broker', token, body: { data } });
const contractOf = async (contractId: string) =>
  (await server.request('GET', `/api/2.5/agreements/${agreementId}/contracts/${contractId}`)).body.data;
const BAN_DOCUMENT = {
  hash: 'md5:' + '0'.repeat(32),
  title: 'milestone.doc',
  format: 'application/msword',
  url: 'http://ds.example/get/5ce8807b',
};

t.test('contracts and their milestones are listed and read (milestone-list.http)', async (t) => {
  const listed = (await server.request('GET', `/api/2.5/agreements/${agreementId}/contracts`)).body.data;
  t.same(
    listed.map((c: { id: string }) => c.id),
    contractIds,
  );
  const [activation] = (await server.request('GET', milestones(contractIds[0]))).body.data;
  t.match(activation, { status: 'scheduled', type: 'activation', dateModified: '2023-01-16T00:00:00+02:00' });
  t.same((await server.request('GET', `${milestones(contractIds[0])}/${activation.id}`)).body.data, activation);
  t.match(
    await server.request('GET', `/api/2.5/agreements/${agreementId}/contracts/${'f'.repeat(32)}`),
    error(404, 'url', 'contract_id', 'Not Found'),
  );
  t.match(await server.request('GET', `${milestones(contractIds[0])}/${'f'.repeat(32)}`), error(404, 'url', 'milestone_id', 'Not Found'));
});

t.test('a milestone document whose url is not a web address → 422 "Not a well formed URL.", nothing stored', async (t) => {
  const contractId = contractIds[1];
  const before = await contractOf(contractId);
  for (const url of ['javascript:alert(1)', 'data:text/html,<script>', 'not a url', 'ftp://ds.example/x']) {
    const refused = await post(contractId, { type: 'ban', documents: [{ ...BAN_DOCUMENT, url }] });
    t.match(refused, error(422, 'body', 'documents', [{ url: ['Not a well formed URL.'] }]), url);
  }
  t.same(await contractOf(contractId), before);
});

t.test('a ban suspends the contract for 90 days; the chronograph lifts it; the activation milestone met terminates it', async (t) => {
  const [contractId] = contractIds;
  const banned = await post(contractId, { type: 'ban', documents: [BAN_DOCUMENT] });
  t.equal(banned.status, 201, banned.text);
  t.equal(banned.headers.get('location'), null, 'no Location, as the reference');
  const ban = banned.body.data;
  t.match(ban, {
    type: 'ban',
    status: 'scheduled',
    dueDate: '2023-04-16T00:00:00+03:00',
    dateModified: '2023-01-16T00:00:00+02:00',
    documents: [{ ...BAN_DOCUMENT, language: 'uk', datePublished: '2023-01-16T00:00:00+02:00', dateModified: '2023-01-16T00:00:00+02:00' }],
  });
  t.match(await contractOf(contractId), { status: 'suspended', date: '2023-01-16T00:00:00+02:00' });
  const agreement = (await server.request('GET', `/api/2.5/agreements/${agreementId}`)).body.data;
  t.equal(agreement.next_check, '2023-04-16T00:00:00+03:00', 'the ban is the next thing due');
  t.match(await post(contractId, { type: 'ban' }), error(403, 'body', 'data', "Can't add ban milestone for contract in suspended status"));

  server.clock.set(new Date('2023-04-16T00:00:00+03:00'));
  await server.request('PATCH', `/api/2.5/agreements/${agreementId}/chronograph`, {
    key: 'chronograph',
    body: { data: { id: agreementId } },
  });
  const lifted = await contractOf(contractId);
  t.equal(lifted.status, 'active');
  t.match(
    lifted.milestones.find((m: { id: string }) => m.id === ban.id),
    { status: 'met', dateMet: '2023-04-16T00:00:00+03:00' },
  );

  server.clock.set(new Date('2023-04-16T01:00:00+03:00'));
  const activation = lifted.milestones.find((m: { type: string }) => m.type === 'activation');
  const met = await patch(contractId, activation.id, { status: 'met' });
  t.equal(met.status, 200, met.text);
  t.same(met.body.data, { ...activation, status: 'met', dateModified: '2023-04-16T01:00:00+03:00', dateMet: '2023-04-16T01:00:00+03:00' });
  t.match(await contractOf(contractId), { status: 'terminated', dateModified: '2023-04-16T01:00:00+03:00' });
  t.match(await post(contractId, { type: 'ban' }), error(403, 'body', 'data', "Can't add object in current (terminated) contract status"));
});

t.test('refused milestone requests answer the reference errors and store nothing', async (t) => {
  const contractId = contractIds[1];
  const before = await storedDoc(server, 'agreements', agreementId);
  const [activation] = (await contractOf(contractId)).milestones;
  t.match(await post(contractId, { type: 'activation' }), error(403, 'body', 'data', "Can't add object for 'activation' milestone"));
  t.match(await post(contractId, { type: 'holiday' }), { status: 422, body: { errors: [{ name: 'type' }] } });
  t.match(await post(contractId, { type: 'ban' }, 'f'.repeat(32)), error(403, 'url', 'permission', 'Forbidden'));
  t.match(
    await server.request('POST', milestones(contractId), { body: { data: { type: 'ban' } }, token: framework.token }),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  t.match(
    await patch(contractId, activation.id, { status: 'notMet' }),
    error(403, 'body', 'data', "Can't switch milestone status from `scheduled` to `notMet`"),
  );
  t.match(await patch(contractId, activation.id, { status: 'met', colour: 'red' }), error(422, 'body', 'colour', 'Rogue field'));
  t.match(await post('f'.repeat(32), { type: 'ban' }), error(404, 'url', 'contract_id', 'Not Found'));
  t.same(await storedDoc(server, 'agreements', agreementId), before);

  const ban = (await post(contractId, { type: 'ban' })).body.data;
  t.match(await patch(contractId, ban.id, { status: 'met' }), error(403, 'body', 'data', "Can't patch `ban` milestone"));
});
