import t from 'tap';
import { activeFramework, createFramework, createSubmission, uploadDocument } from '../../fixtures/frameworks';
import { createPlan } from '../../fixtures/plans';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { tenderInQualification } from '../../fixtures/awards';
import { aContract, createLottedTender, placeBid, tenderInTendering } from '../../fixtures/tenders';

// docs/platform.md §Document fields
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const RATIONALE = 'Дуже конфіденційний файл, треба приховати';

async function createContract() {
  const tender = await createLottedTender(server);
  const reply = await server.request('POST', '/api/2.5/contracts', {
    key: 'contracting',
    body: { data: aContract(tender.id, { documents: [] }) },
  });
  return { id: reply.body.data.id, token: reply.body.access.token, data: reply.body.data };
}

const patch = (base: string, token: string, data: Record<string, unknown>, key = 'broker') =>
  server.request('PATCH', base, { key, token, body: { data } });

t.test('an upload carries what its holder sets: documentOf, confidentiality, language, author', async (t) => {
  const framework = await createFramework(server);
  const submission = await createSubmission(server, (await activeFramework(server)).id);
  const plan = await createPlan(server);
  const tender = await createLottedTender(server);
  const contract = await createContract();
  const cases: [string, string, string, Record<string, unknown>][] = [
    ['tenders', tender.id, tender.token, { documentOf: 'tender', confidentiality: 'public', language: 'uk', author: 'tender_owner' }],
    // The reference's contract documents have no language (contracting/contract/http/contract-upload-document.http).
    ['contracts', contract.id, contract.token, { documentOf: 'contract', confidentiality: 'public' }],
    ['submissions', submission.id, submission.token, { confidentiality: 'public', language: 'uk' }],
    ['frameworks', framework.id, framework.token, { language: 'uk' }],
    ['plans', plan.id, plan.token, { language: 'uk' }],
  ];
  for (const [kind, id, token, fields] of cases) {
    const key = kind === 'submissions' ? 'broker1' : 'broker';
    const uploaded = await uploadDocument(server, `/api/2.5/${kind}/${id}/documents`, { key, token });
    t.equal(uploaded.status, 201, uploaded.text);
    const { documentOf, confidentiality, language, author } = uploaded.body.data;
    t.same(JSON.parse(JSON.stringify({ documentOf, confidentiality, language, author })), fields, kind);
    const put = await uploadDocument(server, `/api/2.5/${kind}/${id}/documents/${uploaded.body.data.id}`, { key, token, method: 'PUT' });
    t.match(put.body.data, fields, `${kind}: a new version keeps them`);
    if (!('language' in fields)) t.notOk('language' in put.body.data, `${kind}: a new version gets no language either`);
  }
});

t.test('a tender document: relatedItem names one of its lots or items; it stays public', async (t) => {
  const tender = await createLottedTender(server);
  const base = `/api/2.5/tenders/${tender.id}/documents`;
  const doc = `${base}/${(await uploadDocument(server, base, { key: 'broker', token: tender.token })).body.data.id}`;
  const [lot, item] = [tender.data.lots[0].id, tender.data.items[0].id];
  t.match(await patch(doc, tender.token, { documentOf: 'lot' }), error(422, 'body', 'relatedItem', ['This field is required.']));
  t.match(
    await patch(doc, tender.token, { documentOf: 'lot', relatedItem: item }),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of lots']),
  );
  t.match(
    await patch(doc, tender.token, { documentOf: 'item', relatedItem: lot }),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of items']),
  );
  t.match((await patch(doc, tender.token, { documentOf: 'lot', relatedItem: lot })).body.data, { documentOf: 'lot', relatedItem: lot });
  t.match((await patch(doc, tender.token, { documentOf: 'item', relatedItem: item })).body.data, { documentOf: 'item', relatedItem: item });
  t.match((await patch(doc, tender.token, { documentOf: 'tender' })).body.data, { documentOf: 'tender', relatedItem: item });

  const buyerOnly = { confidentiality: 'buyerOnly' };
  t.match(
    await patch(doc, tender.token, buyerOnly),
    error(422, 'body', 'confidentialityRationale', ['confidentialityRationale is required']),
  );
  t.match(
    await patch(doc, tender.token, { ...buyerOnly, confidentialityRationale: 'too short' }),
    error(422, 'body', 'confidentialityRationale', ['confidentialityRationale should contain at least 30 characters']),
  );
  t.match(
    await patch(doc, tender.token, { ...buyerOnly, confidentialityRationale: RATIONALE }),
    error(422, 'body', 'confidentiality', 'Document should be public'),
  );
  t.match(await patch(doc, tender.token, { confidentiality: 'secret' }), { status: 422 });
  t.match((await server.request('GET', doc)).body.data, { confidentiality: 'public', author: 'tender_owner' });
});

t.test('a contract document: relatedItem names one of its items or changes; public only', async (t) => {
  const contract = await createContract();
  const base = `/api/2.5/contracts/${contract.id}/documents`;
  const doc = `${base}/${(await uploadDocument(server, base, { key: 'broker', token: contract.token })).body.data.id}`;
  const item = contract.data.items[0].id;
  t.match(
    await patch(doc, contract.token, { documentOf: 'change', relatedItem: item }),
    error(422, 'body', 'relatedItem', ['relatedItem should be one of changes']),
  );
  t.match((await patch(doc, contract.token, { documentOf: 'item', relatedItem: item })).body.data, {
    documentOf: 'item',
    relatedItem: item,
  });
  t.match(
    await patch(doc, contract.token, { confidentiality: 'buyerOnly', confidentialityRationale: RATIONALE }),
    error(422, 'body', 'confidentiality', 'Document should be public'),
  );
});

t.test('documents without the fields refuse them', async (t) => {
  const framework = await createFramework(server);
  const base = `/api/2.5/frameworks/${framework.id}/documents`;
  const doc = `${base}/${(await uploadDocument(server, base, { key: 'broker', token: framework.token })).body.data.id}`;
  t.match(await patch(doc, framework.token, { confidentiality: 'public' }), error(422, 'body', 'confidentiality', 'Rogue field'));
});

t.test('a buyerOnly submission document: only the submission owner and the framework owner open it', async (t) => {
  const framework = await activeFramework(server);
  const submission = await createSubmission(server, framework.id);
  const base = `/api/2.5/submissions/${submission.id}/documents`;
  const first = (await uploadDocument(server, base, { key: 'broker1', token: submission.token, content: 'secret v1' })).body.data;
  const doc = `${base}/${first.id}`;
  const second = (await uploadDocument(server, doc, { key: 'broker1', token: submission.token, content: 'secret v2', method: 'PUT' })).body
    .data;
  const open = (await uploadDocument(server, base, { key: 'broker1', token: submission.token, content: 'open' })).body.data;

  t.match(
    await patch(doc, submission.token, { confidentiality: 'buyerOnly' }, 'broker1'),
    error(422, 'body', 'confidentialityRationale', ['confidentialityRationale is required']),
  );
  const hidden = await patch(doc, submission.token, { confidentiality: 'buyerOnly', confidentialityRationale: RATIONALE }, 'broker1');
  t.equal(hidden.status, 200, hidden.text);
  t.match(hidden.body.data, { confidentiality: 'buyerOnly', confidentialityRationale: RATIONALE, url: second.url });

  const readers: [string, { key?: string; token?: string }, boolean][] = [
    ['the submission owner', { key: 'broker1', token: submission.token }, true],
    ['the framework owner', { key: 'broker', token: framework.token }, true],
    ['anonymous', {}, false],
    ['another broker', { key: 'broker2' }, false],
    ["the submission owner's broker without the token", { key: 'broker1' }, false],
    ['the framework owner without the token', { key: 'broker' }, false],
    ['a restricted-data broker', { key: 'brokerr' }, false],
    ["another broker with the submission's token", { key: 'broker2', token: submission.token }, false],
  ];
  const keyOf = (url: string) => new URL(url).search;
  for (const [who, as, opens] of readers) {
    const list = (await server.request('GET', base, as)).body.data;
    const all = (await server.request('GET', `${base}?all=1`, as)).body.data;
    const single = (await server.request('GET', doc, as)).body.data;
    const withUrl = (d: any) => 'url' in d;
    t.same(list.map(withUrl), [opens, true], `${who}: list`);
    t.same(all.map(withUrl), [opens, opens, true], `${who}: ?all lists every version`);
    t.same([withUrl(single), withUrl(single.previousVersions[0])], [opens, opens], `${who}: read with previousVersions`);
    t.equal(single.confidentialityRationale, RATIONALE, `${who}: the reason is public`);
    for (const [version, content] of [
      [first, 'secret v1'],
      [second, 'secret v2'],
    ] as const) {
      const download = await server.request('GET', `${doc}${keyOf(version.url)}`, as);
      if (opens) t.equal(download.text, content, `${who}: downloads`);
      else t.match(download, error(403, 'body', 'data', 'Document download forbidden.'), `${who}: download refused`);
    }
    const anyKey = await server.request('GET', `${doc}?download=1`, as);
    t.equal(anyKey.status, opens ? 404 : 403, `${who}: any key`);
    t.equal((await server.request('GET', `${base}/${open.id}${keyOf(open.url)}`, as)).text, 'open', `${who}: a public document downloads`);
  }
  // The object's own view is one per account (docs/architecture.md §Kept views): it keeps the url, which opens nothing.
  const viewed = (await server.request('GET', `/api/2.5/submissions/${submission.id}`, { key: 'broker2' })).body.data.documents;
  const url = new URL(viewed.at(-2).url);
  t.match(
    await server.request('GET', `${url.pathname}${url.search}`, { key: 'broker2' }),
    error(403, 'body', 'data', 'Document download forbidden.'),
  );

  const shown = await patch(doc, submission.token, { confidentiality: 'public' }, 'broker1');
  t.equal(shown.status, 200);
  t.equal((await server.request('GET', `${doc}${keyOf(second.url)}`)).text, 'secret v2', 'public again: downloads for everyone');
});

t.test("a bid's document: documentOf tender, public", async (t) => {
  server.clock.set(DEFAULT_NOW);
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  const uploaded = await uploadDocument(server, `/api/2.5/tenders/${tender.id}/bids/${bid.id}/documents`, {
    key: 'broker1',
    token: bid.token,
  });
  t.match(uploaded.body.data, { documentOf: 'tender', confidentiality: 'public' });
});

t.test("a tender's award and cancellation documents: documentOf tender, public only (the clock moves past tendering)", async (t) => {
  server.clock.set(DEFAULT_NOW);
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  const owner = { key: 'broker', token: tender.token };
  const cancellations = `/api/2.5/tenders/${tender.id}/cancellations`;
  const cancellation = await server.request('POST', cancellations, {
    ...owner,
    body: { data: { reason: 'Причина', reasonType: 'noDemand' } },
  });
  const holders: [string, { key: string; token: string }][] = [
    [`/api/2.5/tenders/${tender.id}/awards/${data.awards[0].id}`, owner],
    [`${cancellations}/${cancellation.body.data.id}`, owner],
  ];
  for (const [holder, as] of holders) {
    const uploaded = await uploadDocument(server, `${holder}/documents`, as);
    t.equal(uploaded.status, 201, uploaded.text);
    t.match(uploaded.body.data, { documentOf: 'tender', confidentiality: 'public' }, holder);
    t.match(
      await patch(`${holder}/documents/${uploaded.body.data.id}`, as.token, {
        confidentiality: 'buyerOnly',
        confidentialityRationale: RATIONALE,
      }),
      error(422, 'body', 'confidentiality', 'Document should be public'),
    );
  }
});
