import t from 'tap';
import { errorReply as error, startTestServer, type Reply, type TestServer } from '../../fixtures/server';
import { getTender } from '../../fixtures/cancellations';
import { aComplaint, anObjection, complainableTender, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';
import { docserviceEnv, signedDocument } from '../../fixtures/docservice';
import { readRecording } from '../../fixtures/reference-recording';

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

t.test(
  'documents sent inside the complaint POST, named by its evidences (complaint-objections-with-document-one-action.http)',
  async (t) => {
    const tender = await complainableTender(server);
    const path = complaintsPath(tender);
    const documentId = '22e48e4e4a834e79b06761fe00e6e42d';
    const evidence = { title: 'Evidence', description: 'Test evidence', relatedDocument: documentId };
    const objection = anObjection('tender', tender.id, { arguments: [{ description: 'test argument', evidences: [evidence] }] });
    const attachment = signedDocument({ id: documentId, title: 'Evidence_Attachment.pdf' });
    const before = await getTender(server, tender);
    const refused: [string, unknown, unknown][] = [
      [
        'an evidence naming a document the body does not carry',
        aComplaint([objection], { documents: [signedDocument({ id: 'e'.repeat(32) })] }),
        error(422, 'body', 'objections', [
          { arguments: [{ evidences: [{ relatedDocument: ['relatedDocument should be one of complaint documents'] }] }] },
        ]),
      ],
      [
        'a document of a post the complaint cannot have yet',
        aComplaint([objection], { documents: [{ ...attachment, documentOf: 'post', relatedItem: 'f'.repeat(32) }] }),
        error(422, 'body', 'relatedItem', 'relatedItem should be one of complaint posts'),
      ],
      [
        'a document of a lot the tender does not have',
        aComplaint([objection], { documents: [{ ...attachment, documentOf: 'lot', relatedItem: 'f'.repeat(32) }] }),
        error(422, 'body', 'relatedItem', ['relatedItem should be one of lots']),
      ],
      ['an id that is no md5', aComplaint([objection], { documents: [{ ...attachment, id: 'x' }] }), 422],
      [
        'a url the document service did not sign',
        aComplaint([objection], { documents: [{ ...attachment, url: 'http://example.com/get/abc' }] }),
        403,
      ],
      ['a document without its title', aComplaint([objection], { documents: [{ ...attachment, title: undefined }] }), 422],
    ];
    for (const [name, body, expected] of refused) {
      const res = await server.request('POST', path, { key: 'broker1', body: { data: body } });
      if (typeof expected === 'number') t.equal(res.status, expected, `${name}: ${res.text}`);
      else t.same(reply(res), expected, name);
    }
    t.same(await getTender(server, tender), before, 'no refusal changed the tender');

    const made = await postComplaint(server, path, aComplaint([objection], { documents: [attachment] }));
    t.equal(made.status, 201, made.text);
    const complaint = made.body.data;
    t.match(complaint.documents, [
      {
        id: documentId,
        title: 'Evidence_Attachment.pdf',
        author: 'complaint_owner',
        documentOf: 'tender',
        confidentiality: 'public',
        language: 'uk',
        hash: attachment.hash,
        format: 'application/pdf',
      },
    ]);
    t.equal(complaint.documents[0].datePublished, complaint.date);
    t.equal(complaint.objections[0].arguments[0].evidences[0].relatedDocument, documentId);
    t.match(complaint.objections[0].arguments[0].evidences[0].id, /^[0-9a-f]{32}$/, 'the server names the evidence');
    const one = `${path}/${complaint.id}`;
    const listed = await server.request('GET', `${one}/documents/${documentId}`);
    t.same(listed.body.data, complaint.documents[0], 'the document is one of the complaint’s own');
    const { pathname, search } = new URL(complaint.documents[0].url);
    const download = await fetch(`${server.url}${pathname}${search}`, { redirect: 'manual' });
    t.equal(download.status, 302, 'its download leads to the document service');
    t.match(download.headers.get('location'), /^http:\/\/public-docs-sandbox\.prozorro\.gov\.ua\/get\//);

    // The complainant's draft PATCH keeps evidences naming it (complaint-objections-evidences-with-document.http).
    const patched = await patchComplaint(
      server,
      one,
      { objections: [{ ...objection, id: complaint.objections[0].id }] },
      'broker1',
      made.body.access.token,
    );
    t.equal(patched.status, 200, patched.text);
    t.same(patched.body.data.documents, complaint.documents);
  },
);

t.test('the recording replayed: its body, signed by the development key, answers its shape', async (t) => {
  const recording = readRecording('tendering/basic-actions/http/complaints/complaint-objections-with-document-one-action.http');
  const tender = await complainableTender(server);
  const { data } = recording.requestBody;
  const body = { ...data, objections: data.objections.map((o: object) => ({ ...o, relatedItem: tender.id })) };
  const made = await server.request('POST', complaintsPath(tender), { key: 'broker1', body: { data: body } });
  t.equal(made.status, recording.status, made.text);
  const keys = (o: object) => Object.keys(o).sort();
  const recorded = recording.responseBody;
  t.same(keys(made.body), keys(recorded));
  t.same(keys(made.body.data), keys(recorded.data));
  t.same(keys(made.body.data.documents[0]), keys(recorded.data.documents[0]));
  t.same(keys(made.body.data.objections[0].arguments[0].evidences[0]), keys(recorded.data.objections[0].arguments[0].evidences[0]));
  t.equal(made.body.data.documents[0].id, recorded.data.documents[0].id, 'the id the body gave');
  t.same(made.body.data.value, { amount: 2000, currency: 'UAH' });
});
