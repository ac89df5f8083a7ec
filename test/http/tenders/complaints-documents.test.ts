import t from 'tap';
import { errorReply as error, startTestServer, type Reply, type TestServer } from '../../fixtures/server';
import { getTender } from '../../fixtures/cancellations';
import { aComplaint, anObjection, complainableTender, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';
import { docserviceEnv, signedDocument } from '../../fixtures/docservice';

let server: TestServer;
t.before(async () => {
  server = await startTestServer({ env: docserviceEnv });
});
t.teardown(() => server.close());

const reply = (r: Reply) => ({ status: r.status, body: r.body });

t.test("a post's documents: added by the post's author only, while the complaint takes posts", async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const { token } = made.body.access;
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  const objection = made.body.data.objections[0].id;
  t.equal((await patchComplaint(server, one, { status: 'pending' }, 'bot')).status, 200);
  const post = (key: string, data: unknown, acc?: string) => server.request('POST', `${one}/posts`, { key, token: acc, body: { data } });
  const asked = await post('reviewer', { title: 'q', description: 'q', recipient: 'tender_owner', relatedObjection: objection });
  t.equal(asked.status, 201, asked.text);
  const answer = { title: 'a', description: 'a', recipient: 'aboveThresholdReviewers', relatedPost: asked.body.data.id };
  const answered = await post('broker', { ...answer, relatedObjection: objection }, tender.token);
  t.equal(answered.status, 201, answered.text);
  const postId = answered.body.data.id;

  const docs = `${one}/documents`;
  const ofPost = (relatedItem: string) => signedDocument({ title: 'post_document_tender.pdf', documentOf: 'post', relatedItem });
  const upload = (key: string, data: unknown, acc?: string) => server.request('POST', docs, { key, token: acc, body: { data } });
  const before = await getTender(server, tender);
  t.same(
    reply(await upload('broker1', ofPost(postId), token)),
    error(403, 'url', 'role', 'Can add document to post only by post author'),
    "the complainant on the owner's post (complaint-post-documents-forbidden.http)",
  );
  t.same(
    reply(await upload('reviewer', ofPost(postId))),
    error(403, 'url', 'role', 'Can add document to post only by post author'),
    'nor the review body',
  );
  t.same(
    reply(await upload('broker', ofPost('f'.repeat(32)), tender.token)),
    error(422, 'body', 'relatedItem', 'relatedItem should be one of complaint posts'),
  );
  t.same(
    reply(await upload('broker', signedDocument(), tender.token)),
    error(403, 'body', 'data', 'Can submit or edit document not related to post in current (pending) complaint status for tender_owner'),
  );
  t.equal((await upload('broker', { ...ofPost(postId), documentOf: 'bid' }, tender.token)).status, 422, 'an unknown documentOf');
  t.same(await getTender(server, tender), before, 'no refusal changed the tender');

  const added = await upload('broker', ofPost(postId), tender.token);
  t.equal(added.status, 201, added.text);
  t.match(added.body.data, {
    title: 'post_document_tender.pdf',
    documentOf: 'post',
    relatedItem: postId,
    author: 'tender_owner',
    confidentiality: 'public',
    language: 'uk',
  });
  t.equal(added.headers.get('location'), `${server.url}${docs}/${added.body.data.id}`);
  t.same((await server.request('GET', one)).body.data.documents, [added.body.data], "one of the complaint's documents");
  const renamed = await server.request('PATCH', `${docs}/${added.body.data.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { title: 'renamed.pdf' } },
  });
  t.equal(renamed.status, 200, renamed.text);
  t.match(renamed.body.data, { title: 'renamed.pdf', documentOf: 'post', relatedItem: postId });
  const version = await server.request('GET', `/api/2.5/tenders/${tender.id}/historical`);
  t.equal(version.body.data.complaints[0].documents[0].title, 'renamed.pdf', 'each change is a version of the tender');
  t.notOk(version.text.includes(token) || version.text.includes(tender.token), 'no token in the version');

  // Once decided, no post takes documents.
  await patchComplaint(server, one, { status: 'accepted', reviewDate: '2026-10-10T00:00:00+03:00' }, 'reviewer');
  await patchComplaint(server, one, { status: 'satisfied' }, 'reviewer');
  t.same(
    reply(await upload('broker', ofPost(postId), tender.token)),
    error(403, 'body', 'data', "Can't submit or edit post in current (satisfied) complaint status"),
  );
  const theirs = await upload('broker', signedDocument(), tender.token);
  t.equal(theirs.status, 201, "the owner's own document of a satisfied complaint, as before");
});
