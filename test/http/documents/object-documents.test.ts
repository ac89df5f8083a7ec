import t from 'tap';
import { createFramework, uploadDocument } from '../../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCompetitiveOrderingTender,
  aContract,
  anItem,
  competitiveOrderingConfig,
  createLottedTender,
  createTender,
  insertAgreement,
} from '../../fixtures/tenders';

const HIDDEN = 'Приховано';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

/** An owned object of each kind that holds documents, in a status that accepts them. */
const owners: Record<string, () => Promise<{ id: string; token: string }>> = {
  frameworks: () => createFramework(server),
  tenders: () => createLottedTender(server),
  contracts: async () => {
    const tender = await createLottedTender(server);
    const reply = await server.request('POST', '/api/2.5/contracts', {
      key: 'contracting',
      body: { data: aContract(tender.id, { documents: [] }) },
    });
    return { id: reply.body.data.id, token: reply.body.access.token };
  },
};

for (const [kind, create] of Object.entries(owners)) {
  t.test(`${kind}: the owner uploads, everyone lists and reads, the key downloads`, async (t) => {
    const owned = await create();
    const base = `/api/2.5/${kind}/${owned.id}/documents`;
    const uploaded = await uploadDocument(server, base, {
      key: 'broker',
      token: owned.token,
      filename: 'notice.pdf',
      content: `${kind} notice`,
      type: 'application/pdf',
    });
    t.equal(uploaded.status, 201, uploaded.text);
    const document = uploaded.body.data;
    t.match(document, { id: /^[0-9a-f]{32}$/, title: 'notice.pdf', format: 'application/pdf', hash: /^md5:[0-9a-f]{32}$/ });
    t.equal(uploaded.headers.get('location'), `${server.url}${base}/${document.id}`);

    t.same((await server.request('GET', base)).body.data, [document]);
    t.same((await server.request('GET', `${base}/${document.id}`)).body.data, [document][0]);
    t.same((await server.request('GET', `/api/2.5/${kind}/${owned.id}`)).body.data.documents.slice(-1), [document]);
    const url = new URL(document.url);
    const download = await fetch(`${server.url}${url.pathname}${url.search}`);
    t.equal(await download.text(), `${kind} notice`);

    t.match(await uploadDocument(server, base, { key: 'broker1', token: owned.token }), error(403, 'url', 'permission', 'Forbidden'));
    t.match(await uploadDocument(server, base, { key: 'broker', token: 'f'.repeat(32) }), error(403, 'url', 'permission', 'Forbidden'));
    t.match(await server.request('GET', `${base}/${'f'.repeat(32)}`), error(404, 'url', 'document_id', 'Not Found'));
    t.same((await server.request('GET', base)).body.data, [document], 'refused uploads stored nothing');
  });
}

t.test('a tender past the statuses its procedure lets change refuses new documents', async (t) => {
  const tender = await createLottedTender(server);
  const reply = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  t.equal(reply.status, 200, reply.text);
  server.clock.set(new Date(Date.parse('2026-10-12T00:00:00+03:00') + 1000));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } });
  const refused = await uploadDocument(server, `/api/2.5/tenders/${tender.id}/documents`, { key: 'broker', token: tender.token });
  t.match(refused, error(403, 'body', 'data', "Can't add document in current (active.tendering) tender status"));
});

t.test('documents read as their object does: hidden where its hiding table hides them, for every reader', async (t) => {
  const agreementId = await insertAgreement(server, { restricted: true });
  const tender = await createTender(
    server,
    aCompetitiveOrderingTender(agreementId, { items: [anItem()] }),
    competitiveOrderingConfig({ restricted: true }),
  );
  const created = await server.request('POST', '/api/2.5/contracts', {
    key: 'contracting',
    body: { data: aContract(tender.id, { documents: [] }) },
  });
  const contract = { id: created.body.data.id, token: created.body.access.token };
  for (const [kind, owned] of [
    ['tenders', tender],
    ['contracts', contract],
  ] as const) {
    const base = `/api/2.5/${kind}/${owned.id}/documents`;
    const document = (await uploadDocument(server, base, { key: 'broker', token: owned.token, filename: 'secret-plan.pdf' })).body.data;
    for (const key of [undefined, 'broker', 'broker1', 'brokerr']) {
      const object = (await server.request('GET', `/api/2.5/${kind}/${owned.id}`, { key })).body.data;
      const listed = (await server.request('GET', base, { key })).body.data;
      t.same(listed, object.documents, `${kind} list = the object's documents, key ${key ?? 'none'}`);
      t.same((await server.request('GET', `${base}/${document.id}`, { key })).body.data, listed[0], `${kind} single, key ${key ?? 'none'}`);
    }
  }
  // The spec hides a restricted contract's documents; the spec-era tender table does not list tender documents.
  const [contractDocument] = (await server.request('GET', `/api/2.5/contracts/${contract.id}/documents`)).body.data;
  t.same({ title: contractDocument.title, url: contractDocument.url }, { title: HIDDEN, url: HIDDEN });
  t.same(
    (await server.request('GET', `/api/2.5/contracts/${contract.id}/documents`, { key: 'broker' })).body.data[0].title,
    'secret-plan.pdf',
  );
  t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}/documents`)).body.data[0].title, 'secret-plan.pdf');
});
