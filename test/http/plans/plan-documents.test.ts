import t from 'tap';
import { uploadDocument } from '../../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { createPlan } from '../../fixtures/plans';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

t.test('the plan owner uploads documents; everyone lists and reads them; the plan shows them', async (t) => {
  const plan = await createPlan(server);
  const base = `/api/2.5/plans/${plan.id}/documents`;
  const uploaded = await uploadDocument(server, base, {
    key: 'broker',
    token: plan.token,
    filename: 'plan.pdf',
    content: 'річний план',
    type: 'application/pdf',
  });
  t.equal(uploaded.status, 201, uploaded.text);
  const document = uploaded.body.data;
  t.match(document, { id: /^[0-9a-f]{32}$/, title: 'plan.pdf', format: 'application/pdf', hash: /^md5:[0-9a-f]{32}$/ });
  t.same((await server.request('GET', base)).body.data, [document]);
  t.same((await server.request('GET', `${base}/${document.id}`)).body.data, document);
  t.same((await server.request('GET', `/api/2.5/plans/${plan.id}`)).body.data.documents, [document]);
  const patched = await server.request('PATCH', `/api/2.5/plans/${plan.id}`, {
    key: 'broker',
    token: plan.token,
    body: { data: { status: 'complete' } },
  });
  t.same(patched.body.data.documents, [document], 'a PATCH keeps the documents');
  t.match(await uploadDocument(server, base, { key: 'broker1', token: plan.token }), error(403, 'url', 'permission', 'Forbidden'));
});

t.test('documents are written by their route only: in a plan POST or PATCH body they are a Rogue field', async (t) => {
  const plan = await createPlan(server);
  const documents = [{ title: 'x.pdf', url: 'http://example.com/x.pdf' }];
  const patched = await server.request('PATCH', `/api/2.5/plans/${plan.id}`, {
    key: 'broker',
    token: plan.token,
    body: { data: { documents } },
  });
  t.match(patched, error(422, 'body', 'documents', 'Rogue field'));
  const posted = await server.request('POST', '/api/2.5/plans', { key: 'broker', body: { data: { ...plan.data, documents } } });
  t.equal(posted.status, 422);
  t.ok(posted.body.errors.some((e: { name: string; description: unknown }) => e.name === 'documents' && e.description === 'Rogue field'));
});

t.test('a complete or cancelled plan takes no documents → 422 body/status', async (t) => {
  const plan = await createPlan(server);
  await server.request('PATCH', `/api/2.5/plans/${plan.id}`, { key: 'broker', token: plan.token, body: { data: { status: 'complete' } } });
  const refused = await uploadDocument(server, `/api/2.5/plans/${plan.id}/documents`, { key: 'broker', token: plan.token });
  t.match(refused, error(422, 'body', 'status', "Can't update plan in 'complete' status"));
});
