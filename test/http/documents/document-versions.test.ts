import t from 'tap';
import { activeFramework, createSubmission, activeSubmission, uploadDocument } from '../../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aContract, createLottedTender } from '../../fixtures/tenders';
import { createPlan } from '../../fixtures/plans';

/**
 * Document versions and metadata on every kind that holds documents (docs/platform.md §Document versions), after
 * `tender-documents-3*.http`, `tender-document-edit-docType-desc.http`, `get-framework-document-3.http`.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const MINUTE = 60_000;
const later = () => server.clock.set(new Date(server.clock.now().getTime() + MINUTE));

interface Owned {
  id: string;
  token: string;
  key: string;
}

/** An owned object of each kind that holds documents, in a status that accepts them, with its owner's key. */
const owners: Record<string, () => Promise<Owned>> = {
  tenders: async () => ({ ...(await createLottedTender(server)), key: 'broker' }),
  frameworks: async () => ({ ...(await activeFramework(server)), key: 'broker' }),
  contracts: async () => {
    const tender = await createLottedTender(server);
    const reply = await server.request('POST', '/api/2.5/contracts', {
      key: 'contracting',
      body: { data: aContract(tender.id, { documents: [] }) },
    });
    return { id: reply.body.data.id, token: reply.body.access.token, key: 'broker' };
  },
  submissions: async () => {
    const framework = await activeFramework(server);
    return { ...(await createSubmission(server, framework.id)), key: 'broker1' };
  },
  plans: async () => ({ ...(await createPlan(server)), key: 'broker' }),
  qualifications: async () => {
    const framework = await activeFramework(server);
    const submission = await activeSubmission(server, framework.id);
    return { id: submission.qualificationID, token: framework.token, key: 'broker' };
  },
};

for (const [kind, create] of Object.entries(owners)) {
  t.test(`${kind}: PUT adds a version under the same id, PATCH changes the latest one's metadata`, async (t) => {
    const owned = await create();
    const base = `/api/2.5/${kind}/${owned.id}/documents`;
    const first = (
      await uploadDocument(server, base, {
        key: owned.key,
        token: owned.token,
        filename: 'v1.pdf',
        content: 'first',
        type: 'application/pdf',
      })
    ).body.data;
    later();
    const put = await uploadDocument(server, `${base}/${first.id}`, {
      key: owned.key,
      token: owned.token,
      filename: 'v2.pdf',
      content: 'second',
      method: 'PUT',
    });
    t.equal(put.status, 200, put.text);
    const second = put.body.data;
    t.match(second, { id: first.id, title: 'v2.pdf', format: 'application/pdf' }, 'id and format carried over');
    t.equal(second.language, first.language, 'language carried over (none on a contract document)');
    t.not(second.hash, first.hash);
    t.not(second.url, first.url);
    t.not(second.dateModified, first.dateModified);
    t.equal(second.datePublished, second.dateModified);

    t.same((await server.request('GET', base)).body.data, [second], 'the list shows the latest version');
    t.same((await server.request('GET', `${base}?all=1`)).body.data, [first, second], '?all=1 shows every version');
    t.same((await server.request('GET', `${base}/${first.id}`)).body.data, { ...second, previousVersions: [first] });
    t.same(
      (await server.request('GET', `/api/2.5/${kind}/${owned.id}`, { key: owned.key })).body.data.documents,
      [first, second],
      'the object keeps both',
    );
    for (const [version, content] of [
      [first, 'first'],
      [second, 'second'],
    ] as const) {
      const url = new URL(version.url);
      const download = await server.request('GET', `${url.pathname}${url.search}`, { key: owned.key, token: owned.token });
      t.equal(download.text, content, `${version.title} downloads by its own key`);
    }

    later();
    const patched = await server.request('PATCH', `${base}/${first.id}`, {
      key: owned.key,
      token: owned.token,
      body: { data: { id: first.id, description: 'змінений опис документа', documentType: 'notice' } },
    });
    t.equal(patched.status, 200, patched.text);
    t.same(patched.body.data, {
      ...second,
      description: 'змінений опис документа',
      documentType: 'notice',
      dateModified: patched.body.data.dateModified,
    });
    t.not(patched.body.data.dateModified, second.dateModified);
    t.same((await server.request('GET', `${base}?all=1`)).body.data, [first, patched.body.data], 'only the latest version changed');
    const removed = await server.request('PATCH', `${base}/${first.id}`, {
      key: owned.key,
      token: owned.token,
      body: { data: { description: null } },
    });
    t.equal(removed.body.data.description, undefined, 'null removes a member');

    t.match(
      await server.request('PATCH', `${base}/${first.id}`, { key: owned.key, token: owned.token, body: { data: { url: 'http://x' } } }),
      error(422, 'body', 'url', 'Rogue field'),
    );
    t.match(
      await server.request('PATCH', `${base}/${first.id}`, {
        key: owned.key,
        token: owned.token,
        body: { data: { documentType: 'poem' } },
      }),
      error(422, 'body', 'documentType', [/^Value must be one of \['tenderNotice', /]),
    );
    t.match(
      await server.request('PATCH', `${base}/${'f'.repeat(32)}`, { key: owned.key, token: owned.token, body: { data: { title: 'x' } } }),
      error(404, 'url', 'document_id', 'Not Found'),
    );
    t.match(
      await uploadDocument(server, `${base}/${'f'.repeat(32)}`, { key: owned.key, token: owned.token, method: 'PUT' }),
      error(404, 'url', 'document_id', 'Not Found'),
    );
    t.match(
      await server.request('PATCH', `${base}/${first.id}`, { key: 'broker2', token: owned.token, body: { data: { title: 'x' } } }),
      error(403, 'url', 'permission', 'Forbidden'),
    );
    t.match(
      await uploadDocument(server, `${base}/${first.id}`, { key: owned.key, token: 'f'.repeat(32), method: 'PUT' }),
      error(403, 'url', 'permission', 'Forbidden'),
    );
    t.match(
      await server.request('PUT', `${base}/${first.id}`, {
        key: owned.key,
        token: owned.token,
        body: { data: { title: 'x', url: 'http://x' } },
      }),
      error(403, 'body', 'url', 'Can add document only from document service.'),
    );
    t.equal((await server.request('GET', `${base}?all=1`)).body.data.length, 2, 'refusals stored nothing');
  });
}

t.test('a tender document says what it is about; a framework document has no documentOf', async (t) => {
  const tender = await createLottedTender(server);
  const base = `/api/2.5/tenders/${tender.id}/documents`;
  const document = (await uploadDocument(server, base, { key: 'broker', token: tender.token })).body.data;
  const [item] = tender.data.items;
  const patched = await server.request('PATCH', `${base}/${document.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { documentOf: 'item', relatedItem: item.id } },
  });
  t.match(patched.body.data, { documentOf: 'item', relatedItem: item.id });
  const framework = await activeFramework(server);
  const fbase = `/api/2.5/frameworks/${framework.id}/documents`;
  const fdocument = (await uploadDocument(server, fbase, { key: 'broker', token: framework.token })).body.data;
  t.match(
    await server.request('PATCH', `${fbase}/${fdocument.id}`, {
      key: 'broker',
      token: framework.token,
      body: { data: { documentOf: 'item' } },
    }),
    error(422, 'body', 'documentOf', 'Rogue field'),
  );
});

t.test('a tender past its editable statuses refuses new versions and metadata with the reference text', async (t) => {
  const tender = await createLottedTender(server);
  const base = `/api/2.5/tenders/${tender.id}/documents`;
  const document = (await uploadDocument(server, base, { key: 'broker', token: tender.token })).body.data;
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  server.clock.set(new Date(Date.parse('2026-10-12T00:00:00+03:00') + 1000));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } });
  const refusal = error(403, 'body', 'data', "Can't update document in current (active.tendering) tender status");
  t.match(await uploadDocument(server, `${base}/${document.id}`, { key: 'broker', token: tender.token, method: 'PUT' }), refusal);
  t.match(
    await server.request('PATCH', `${base}/${document.id}`, { key: 'broker', token: tender.token, body: { data: { title: 'x' } } }),
    refusal,
  );
});
