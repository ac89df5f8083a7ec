import t from 'tap';
import { createHash } from 'node:crypto';
import { startTestServer } from '../../fixtures/server';
import {
  aTenderer,
  activeFramework,
  activeSubmission,
  createSubmission,
  decideQualification,
  err,
  storedDoc,
  uploadDocument,
} from '../../fixtures/frameworks';

t.test('submission and qualification documents', async (t) => {
  const server = await startTestServer({ now: new Date('2027-01-17T00:00:00+02:00') });
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const s = await createSubmission(server, framework.id);
  const base = `/api/2.5/submissions/${s.id}/documents`;
  const uploaded = await uploadDocument(server, base, { key: 'broker1', token: s.token, content: 'hello' });

  t.test('the owner uploads a file → 201 with server-computed hash, format, dates and a download url', async (t) => {
    t.equal(uploaded.status, 201);
    const doc = uploaded.body.data;
    t.equal(uploaded.headers.get('location'), `${server.url}${base}/${doc.id}`);
    t.same(doc, {
      id: doc.id,
      title: 'укр.doc',
      format: 'application/msword',
      url: `${server.config.storedUrlBase}${base}/${doc.id}?download=${new URL(doc.url).searchParams.get('download')}`,
      hash: `md5:${createHash('md5').update('hello').digest('hex')}`,
      language: 'uk',
      confidentiality: 'public',
      datePublished: '2027-01-17T00:00:00+02:00',
      dateModified: '2027-01-17T00:00:00+02:00',
    });
    t.same((await server.request('GET', `/api/2.5/submissions/${s.id}`)).body.data.documents, [doc]);
    t.same((await server.request('GET', base)).body.data, [doc]);
  });

  t.test('endpoint 22 with the key → the bytes as an attachment of its format; a wrong key → 404 download', async (t) => {
    const url = new URL(uploaded.body.data.url);
    const res = await fetch(`${server.url}${url.pathname}${url.search}`);
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/msword', 'the format, a type that is safe to serve');
    t.match(res.headers.get('content-disposition'), /^attachment;/);
    t.equal(await res.text(), 'hello');
    const wrong = await server.request('GET', `${url.pathname}?download=${'0'.repeat(32)}`);
    t.same([wrong.status, wrong.body], [404, err('url', 'download', 'Not Found')]);
    const unknown = await server.request('GET', `${base}/${'0'.repeat(32)}?download=x`);
    t.same([unknown.status, unknown.body], [404, err('url', 'document_id', 'Not Found')]);
  });

  t.test('refused uploads → exact errors, nothing stored', async (t) => {
    const before = await storedDoc(server, 'submissions', s.id);
    const noToken = await uploadDocument(server, base, { key: 'broker1' });
    t.same([noToken.status, noToken.body], [403, err('url', 'permission', 'Forbidden')]);
    const otherBroker = await uploadDocument(server, base, { key: 'broker2', token: s.token });
    t.same([otherBroker.status, otherBroker.body], [403, err('url', 'permission', 'Forbidden')]);
    const json = await server.request('POST', base, { key: 'broker1', token: s.token, body: { data: { title: 'x', url: 'http://x' } } });
    t.same([json.status, json.body], [403, err('body', 'url', 'Can add document only from document service.')]);
    const form = new FormData();
    form.append('other', 'x');
    const res = await fetch(`${server.url}${base}?acc_token=${s.token}`, {
      method: 'POST',
      headers: { authorization: 'Bearer broker1' },
      body: form,
    });
    t.same([res.status, await res.json()], [404, err('body', 'file', 'Not Found')]);
    t.same(await storedDoc(server, 'submissions', s.id), before);
  });

  t.test('qualification documents: the framework owner only, while pending', async (t) => {
    const active = await activeSubmission(server, framework.id, { tenderer: aTenderer('5555') });
    const qbase = `/api/2.5/qualifications/${active.qualificationID}/documents`;
    const bySubmitter = await uploadDocument(server, qbase, { key: 'broker1', token: active.token });
    t.same([bySubmitter.status, bySubmitter.body], [403, err('url', 'permission', 'Forbidden')]);
    const ok = await uploadDocument(server, qbase, { key: 'broker', token: framework.token, filename: 'sign.p7s' });
    t.equal(ok.status, 201);
    await decideQualification(server, framework, active.qualificationID, 'active');
    const late = await uploadDocument(server, qbase, { key: 'broker', token: framework.token });
    t.same([late.status, late.body], [403, err('body', 'data', "Can't add document in current (active) qualification status")]);
    const complete = await uploadDocument(server, `/api/2.5/submissions/${active.id}/documents`, { key: 'broker1', token: active.token });
    t.same([complete.status, complete.body], [403, err('body', 'data', "Can't add document in current (complete) submission status")]);
  });
});
