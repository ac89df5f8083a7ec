import t from 'tap';
import { errorReply as error, startTestServer } from '../../fixtures/server';
import { aTender, createTender } from '../../fixtures/tenders';
import { activeFramework, activeSubmission, createFramework, uploadDocument } from '../../fixtures/frameworks';

/**
 * docs/platform.md §Server-managed arrays: documents and every sub-resource collection are written by their own
 * routes only; the parent's POST or PATCH that carries one → 422 Rogue field, nothing stored (issue 17 defect 7).
 */
const DOCUMENT = { title: 'x.pdf', url: 'not a url', hash: 'md5:' + '0'.repeat(32), format: 'application/pdf' };

t.test('server-managed arrays', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  t.test(
    'the owner PATCH of a tender with documents (a bad url, javascript:) → 422 Rogue field; the download route keeps answering',
    async (t) => {
      const tender = await createTender(server, aTender());
      const uploaded = await uploadDocument(server, `/api/2.5/tenders/${tender.id}/documents`, { key: 'broker', token: tender.token });
      t.equal(uploaded.status, 201, 'the upload route writes documents');
      const before = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body;
      for (const url of ['not a url', 'javascript:alert(1)']) {
        const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
          key: 'broker',
          token: tender.token,
          body: { data: { documents: [{ ...DOCUMENT, url }] } },
        });
        t.match(res, error(422, 'body', 'documents', 'Rogue field'), url);
      }
      t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body, before, 'nothing changed');
      const download = await server.request('GET', `${new URL(uploaded.body.data.url).pathname}${new URL(uploaded.body.data.url).search}`);
      t.equal(download.status, 200, 'the stored document still downloads');
    },
  );

  t.test(
    'POST /tenders with documents, and the owner PATCH with questions, complaints, bids, awards, contracts, cancellations → 422 Rogue field',
    async (t) => {
      const created = await server.request('POST', '/api/2.5/tenders', {
        key: 'broker',
        body: { data: aTender({ documents: [DOCUMENT] }) },
      });
      t.match(created, error(422, 'body', 'documents', 'Rogue field'));
      const tender = await createTender(server, aTender());
      for (const name of ['questions', 'complaints', 'bids', 'awards', 'contracts', 'cancellations']) {
        const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
          key: 'broker',
          token: tender.token,
          body: { data: { [name]: [{ id: 'a'.repeat(32) }] } },
        });
        t.match(res, error(422, 'body', name, 'Rogue field'), name);
      }
    },
  );

  t.test('framework, submission and qualification PATCH with documents → 422 Rogue field', async (t) => {
    const draft = await createFramework(server);
    t.match(
      await server.request('PATCH', `/api/2.5/frameworks/${draft.id}`, {
        key: 'broker',
        token: draft.token,
        body: { data: { documents: [DOCUMENT] } },
      }),
      error(422, 'body', 'documents', 'Rogue field'),
    );
    const framework = await activeFramework(server);
    const submission = await activeSubmission(server, framework.id);
    t.match(
      await server.request('PATCH', `/api/2.5/submissions/${submission.id}`, {
        key: 'broker1',
        token: submission.token,
        body: { data: { documents: [DOCUMENT] } },
      }),
      error(422, 'body', 'documents', 'Rogue field'),
    );
    t.match(
      await server.request('PATCH', `/api/2.5/qualifications/${submission.qualificationID}`, {
        key: 'broker',
        token: framework.token,
        body: { data: { documents: [DOCUMENT] } },
      }),
      error(422, 'body', 'documents', 'Rogue field'),
    );
  });
});
