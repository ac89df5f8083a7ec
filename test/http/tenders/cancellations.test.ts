import t from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCancellation,
  activeTender,
  cancellationsPath,
  getTender,
  patchCancellation,
  plant,
  postCancellation,
  uploadCancellationDocument,
} from '../../fixtures/cancellations';
import {
  aCompetitiveOrderingTender,
  aLot,
  anItem,
  competitiveOrderingConfig,
  createLottedTender,
  createTender,
  insertAgreement,
  type Created,
} from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const NOW_TEXT = '2026-10-05T12:00:00+03:00';
const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });
/** The document's bytes, read through the test server (stored urls name the configured public base). */
const download = (url: string) => fetch(`${server.url}${new URL(url).pathname}${new URL(url).search}`);
const refused = (status: number, description: unknown, name = 'data', location = 'body') => error(status, location, name, description);

async function draftCancellation(tender: Created, data: Record<string, unknown> = {}) {
  const res = await postCancellation(server, tender, aCancellation(data));
  if (res.status !== 201) throw new Error(res.text);
  return res.body.data;
}

t.test('the tutorial: a draft cancellation, its document, then active: the tender is cancelled', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const created = await postCancellation(server, tender, { reason: 'cancellation reason', reasonType: 'noDemand' });
  t.equal(created.status, 201);
  const cancellation = created.body.data;
  t.same(cancellation, {
    reason: 'cancellation reason',
    reasonType: 'noDemand',
    id: cancellation.id,
    date: NOW_TEXT,
    cancellationOf: 'tender',
    status: 'draft',
  });
  t.match(cancellation.id, /^[0-9a-f]{32}$/);
  t.equal(created.headers.get('location'), `${server.url}${cancellationsPath(tender, cancellation.id)}`);
  t.equal((await getTender(server, tender)).status, 'active.enquiries', 'a draft changes nothing');

  const uploaded = await uploadCancellationDocument(server, tender, cancellation.id);
  t.equal(uploaded.status, 201);
  t.match(uploaded.body.data, { title: 'Notice.pdf', format: 'application/pdf', hash: /^md5:[0-9a-f]{32}$/, datePublished: NOW_TEXT });
  t.equal(
    uploaded.headers.get('location'),
    `${server.url}${cancellationsPath(tender, cancellation.id, 'documents', uploaded.body.data.id)}`,
  );

  server.clock.advance(60_000);
  const activated = await patchCancellation(server, tender, cancellation.id, { status: 'active' });
  t.equal(activated.status, 200, activated.text);
  t.same(activated.body.data, { ...cancellation, status: 'active', documents: [uploaded.body.data] }, 'date stays as created');
  const after = await getTender(server, tender);
  t.equal(after.status, 'cancelled');
  t.equal(after.date, '2026-10-05T12:01:00+03:00');
  t.same(after.cancellations, [activated.body.data]);
  t.notOk('next_check' in after, 'a cancelled tender has nothing due');
});

t.test('cancellations are read as a list and one by one by anyone', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const first = await draftCancellation(tender);
  const second = await draftCancellation(tender, { reasonType: 'expensesCut' });
  t.same(reply(await server.request('GET', cancellationsPath(tender))), { status: 200, body: { data: [first, second] } });
  t.same(reply(await server.request('GET', cancellationsPath(tender, second.id))), { status: 200, body: { data: second } });
  t.same(reply(await server.request('GET', cancellationsPath(tender, 'f'.repeat(32)))), error(404, 'url', 'cancellation_id', 'Not Found'));
  t.same(reply(await server.request('GET', '/api/2.5/tenders/some_id/cancellations')), error(404, 'url', 'tender_id', 'Not Found'));
});

t.test('POST refusals, each with the reference text, leave the tender unchanged', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const before = await getTender(server, tender);
  const cases: [string, () => Promise<{ status: number; body: unknown }>, unknown][] = [
    [
      'unknown tender',
      () => server.request('POST', '/api/2.5/tenders/some_id/cancellations', { key: 'broker', body: { data: aCancellation() } }),
      error(404, 'url', 'tender_id', 'Not Found'),
    ],
    [
      'no key',
      () => server.request('POST', cancellationsPath(tender), { token: tender.token, body: { data: aCancellation() } }),
      error(403, 'url', 'permission', 'Forbidden'),
    ],
    [
      'another broker',
      () => postCancellation(server, tender, aCancellation(), { key: 'broker1' }),
      error(403, 'url', 'permission', 'Forbidden'),
    ],
    [
      'wrong token',
      () => postCancellation(server, tender, aCancellation(), { token: 'f'.repeat(32) }),
      error(403, 'url', 'permission', 'Forbidden'),
    ],
    [
      'no data',
      () => server.request('POST', cancellationsPath(tender), { key: 'broker', token: tender.token, body: { not_data: {} } }),
      refused(422, 'Data not available'),
    ],
    ['no reason', () => postCancellation(server, tender, { reasonType: 'noDemand' }), refused(422, ['This field is required.'], 'reason')],
    [
      'rogue field',
      () => postCancellation(server, tender, aCancellation({ invalid_field: 'x' })),
      refused(422, 'Rogue field', 'invalid_field'),
    ],
    [
      'documents in JSON',
      () => postCancellation(server, tender, aCancellation({ documents: [] })),
      refused(422, 'Rogue field', 'documents'),
    ],
    [
      'relatedLot not a lot',
      () => postCancellation(server, tender, aCancellation({ relatedLot: '0'.repeat(32) })),
      refused(422, ['relatedLot should be one of lots'], 'relatedLot'),
    ],
    [
      'of a lot without relatedLot',
      () => postCancellation(server, tender, aCancellation({ cancellationOf: 'lot' })),
      refused(422, ['This field is required.'], 'relatedLot'),
    ],
    ['no reasonType', () => postCancellation(server, tender, { reason: 'r' }), refused(422, ['This field is required'], 'reasonType')],
    [
      'reasonType of another procedure',
      () => postCancellation(server, tender, aCancellation({ reasonType: 'forceMajeure' })),
      refused(422, ["Value must be one of ['noDemand', 'unFixable', 'expensesCut']"], 'reasonType'),
    ],
  ];
  for (const [name, send, expected] of cases) t.same(reply(await send()), expected, name);
  t.same(await getTender(server, tender), before);
});

t.test('a sent status is ignored: a new cancellation is always a draft', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const res = await postCancellation(server, tender, aCancellation({ status: 'active' }));
  t.equal(res.body.data.status, 'draft');
  t.equal((await getTender(server, tender)).status, 'active.enquiries');
  t.same(
    reply(await postCancellation(server, tender, aCancellation({ status: 'unsuccessful' }))),
    refused(422, ["Value must be one of ['draft', 'pending', 'active']."], 'status'),
  );
});

t.test(
  'a tender in draft, in its auction or ended cannot be cancelled → 403 "Can\'t perform cancellation in current (…) tender status"',
  async (t) => {
    const draft = await createLottedTender(server);
    t.same(
      reply(await postCancellation(server, draft, aCancellation())),
      refused(403, "Can't perform cancellation in current (draft) tender status"),
    );
    for (const status of ['active.auction', 'active.qualification.stand-still', 'complete', 'unsuccessful', 'cancelled']) {
      const tender = await activeTender(server, 'belowThreshold');
      await plant(server, tender.id, (d) => (d.status = status));
      t.same(
        reply(await postCancellation(server, tender, aCancellation())),
        refused(403, `Can't perform cancellation in current (${status}) tender status`),
        status,
      );
    }
    for (const status of ['active.tendering', 'active.qualification', 'active.awarded']) {
      const tender = await activeTender(server, 'belowThreshold');
      await plant(server, tender.id, (d) => (d.status = status));
      t.equal((await postCancellation(server, tender, aCancellation())).status, 201, `allowed in ${status}`);
    }
  },
);

t.test('a lot no longer active cannot be cancelled → 403 "Can perform cancellation only in active lot status"', async (t) => {
  const tender = await activeTender(server, 'belowThreshold', 2);
  const [lot1, lot2] = tender.data.lots;
  await plant(server, tender.id, (d) => (d.lots[0].status = 'unsuccessful'));
  t.same(
    reply(await postCancellation(server, tender, aCancellation({ relatedLot: lot1.id }))),
    refused(403, 'Can perform cancellation only in active lot status'),
  );
  const lotCancellation = await postCancellation(server, tender, aCancellation({ relatedLot: lot2.id }));
  t.equal(lotCancellation.body.data.cancellationOf, 'lot');
  t.equal(lotCancellation.body.data.relatedLot, lot2.id);
});

t.test('PATCH refusals, each with the reference text, leave the tender unchanged', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const cancellation = await draftCancellation(tender);
  const before = await getTender(server, tender);
  const cases: [string, () => Promise<{ status: number; body: unknown }>, unknown][] = [
    [
      'unknown cancellation',
      () => patchCancellation(server, tender, 'some_id', { status: 'active' }),
      error(404, 'url', 'cancellation_id', 'Not Found'),
    ],
    [
      'unknown tender',
      () => server.request('PATCH', '/api/2.5/tenders/some_id/cancellations/some_id', { key: 'broker', body: { data: {} } }),
      error(404, 'url', 'tender_id', 'Not Found'),
    ],
    [
      'wrong token',
      () => patchCancellation(server, tender, cancellation.id, { status: 'active' }, { token: 'f'.repeat(32) }),
      error(403, 'url', 'permission', 'Forbidden'),
    ],
    [
      'reason is not patched',
      () => patchCancellation(server, tender, cancellation.id, { reason: 'other' }),
      refused(422, 'Rogue field', 'reason'),
    ],
    [
      'unknown status',
      () => patchCancellation(server, tender, cancellation.id, { status: 'cancelled' }),
      refused(422, ["Value must be one of ['draft', 'pending', 'active', 'unsuccessful']."], 'status'),
    ],
    [
      'reasonType of another procedure',
      () => patchCancellation(server, tender, cancellation.id, { reasonType: 'noOffer' }),
      refused(422, ["Value must be one of ['noDemand', 'unFixable', 'expensesCut']"], 'reasonType'),
    ],
    [
      'active without documents',
      () => patchCancellation(server, tender, cancellation.id, { status: 'active' }),
      refused(422, 'Fields reason, cancellationOf and documents must be filled for switch cancellation to active status'),
    ],
    [
      'pending without documents',
      () => patchCancellation(server, tender, cancellation.id, { status: 'pending' }),
      refused(422, 'Fields reason, cancellationOf and documents must be filled for switch cancellation to pending status'),
    ],
  ];
  for (const [name, send, expected] of cases) t.same(reply(await send()), expected, name);
  t.same(await getTender(server, tender), before);
});

t.test('a draft changes its reasonType; an unchanged PATCH saves nothing', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const cancellation = await draftCancellation(tender);
  server.clock.advance(60_000);
  const same = await patchCancellation(server, tender, cancellation.id, { reasonType: 'noDemand', status: 'draft' });
  t.same(same.body.data, cancellation);
  t.equal((await getTender(server, tender)).dateModified, NOW_TEXT);
  const changed = await patchCancellation(server, tender, cancellation.id, { reasonType: 'unFixable' });
  t.same(changed.body.data, { ...cancellation, reasonType: 'unFixable' });
  t.equal((await getTender(server, tender)).dateModified, '2026-10-05T12:01:00+03:00');
});

t.test(
  'an unsuccessful cancellation is withdrawn and never changes again → 403 "Can\'t update cancellation in current (unsuccessful) status"',
  async (t) => {
    const tender = await activeTender(server, 'belowThreshold');
    const cancellation = await draftCancellation(tender);
    const withdrawn = await patchCancellation(server, tender, cancellation.id, { status: 'unsuccessful' });
    t.equal(withdrawn.body.data.status, 'unsuccessful');
    t.equal((await getTender(server, tender)).status, 'active.enquiries');
    for (const status of ['pending', 'draft', 'active']) {
      t.same(
        reply(await patchCancellation(server, tender, cancellation.id, { status })),
        refused(403, "Can't update cancellation in current (unsuccessful) status"),
        status,
      );
    }
  },
);

t.test('after the tender is cancelled, its other drafts and their documents are refused', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const other = await draftCancellation(tender);
  const cancellation = await draftCancellation(tender);
  await uploadCancellationDocument(server, tender, cancellation.id);
  await patchCancellation(server, tender, cancellation.id, { status: 'active' });
  const text = "Can't perform cancellation in current (cancelled) tender status";
  t.same(reply(await postCancellation(server, tender, aCancellation())), refused(403, text));
  t.same(reply(await patchCancellation(server, tender, other.id, { reasonType: 'unFixable' })), refused(403, text));
  t.same(reply(await patchCancellation(server, tender, cancellation.id, { status: 'draft' })), refused(403, text));
  t.same(reply(await uploadCancellationDocument(server, tender, other.id)), refused(403, text));
});

t.test('cancellation documents: listed, read one by one, downloaded; refused to others and as JSON', async (t) => {
  const tender = await activeTender(server, 'belowThreshold');
  const cancellation = await draftCancellation(tender);
  const document = (await uploadCancellationDocument(server, tender, cancellation.id)).body.data;
  const documentsPath = cancellationsPath(tender, cancellation.id, 'documents');
  t.same((await server.request('GET', documentsPath)).body.data, [document]);
  t.same((await server.request('GET', `${documentsPath}/${document.id}`)).body.data, document);
  const file = await download(document.url);
  t.equal(file.status, 200);
  t.equal(await file.text(), 'document content');
  t.same(reply(await server.request('GET', `${documentsPath}/${'0'.repeat(32)}`)), error(404, 'url', 'document_id', 'Not Found'));
  t.same(reply(await server.request('GET', `${documentsPath}/${document.id}?download=wrong`)), error(404, 'url', 'download', 'Not Found'));
  t.same(
    reply(await server.request('GET', cancellationsPath(tender, 'some_id', 'documents'))),
    error(404, 'url', 'cancellation_id', 'Not Found'),
  );
  t.same(
    reply(await uploadCancellationDocument(server, tender, cancellation.id, { key: 'broker1' })),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  t.same(reply(await uploadCancellationDocument(server, tender, 'some_id')), error(404, 'url', 'cancellation_id', 'Not Found'));
  const json = await server.request('POST', documentsPath, {
    key: 'broker',
    token: tender.token,
    body: { data: { title: 'a.pdf', url: 'http://x/y' } },
  });
  t.same(reply(json), refused(403, 'Can add document only from document service.', 'url'));
  t.same((await server.request('GET', documentsPath)).body.data, [document]);
});

t.test('a document may be added to a withdrawn cancellation and to an active lot cancellation', async (t) => {
  const tender = await activeTender(server, 'belowThreshold', 2);
  const withdrawn = await draftCancellation(tender);
  await patchCancellation(server, tender, withdrawn.id, { status: 'unsuccessful' });
  t.equal((await uploadCancellationDocument(server, tender, withdrawn.id)).status, 201);
  const lot = await draftCancellation(tender, { relatedLot: tender.data.lots[0].id });
  await uploadCancellationDocument(server, tender, lot.id);
  await patchCancellation(server, tender, lot.id, { status: 'active' });
  t.equal((await uploadCancellationDocument(server, tender, lot.id)).status, 201);
});

t.test(
  'a restricted tender: the hiding table names no part of a cancellation, so every reader sees it and its documents whole',
  async (t) => {
    const lot = 'd'.repeat(32);
    const data = aCompetitiveOrderingTender(await insertAgreement(server, { restricted: true }), {
      lots: [aLot({ id: lot })],
      items: [anItem({ relatedLot: lot })],
    });
    const tender = await createTender(server, data, competitiveOrderingConfig({ restricted: true }));
    await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
      key: 'broker',
      token: tender.token,
      body: { data: { status: 'active.tendering' } },
    });
    const cancellation = await draftCancellation(tender);
    const document = (await uploadCancellationDocument(server, tender, cancellation.id)).body.data;
    const anonymous = await server.request('GET', `/api/2.5/tenders/${tender.id}`);
    t.equal(anonymous.body.data.items[0].deliveryAddress.streetAddress, 'Приховано', 'the tender is hidden as the table says');
    t.same(anonymous.body.data.cancellations, [{ ...cancellation, documents: [document] }]);
    t.same((await server.request('GET', cancellationsPath(tender, cancellation.id, 'documents', document.id))).body.data, document);
    t.equal((await download(document.url)).status, 200);
  },
);
