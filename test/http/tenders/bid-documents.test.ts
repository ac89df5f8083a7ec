import t from 'tap';
import { uploadDocument } from '../../fixtures/frameworks';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { placeBid, runChronograph, tenderAfterTendering, tenderInTendering, TENDERING_END } from '../../fixtures/tenders';

let server: TestServer;
t.beforeEach(async () => {
  server = await startTestServer();
});
t.afterEach(() => server.close());

const docs = (tenderId: string, bidId: string) => `/api/2.5/tenders/${tenderId}/bids/${bidId}/documents`;

t.test('the bid owner uploads a document while tendering → 201 with hash and download url; the tender dateModified stays', async (t) => {
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  const before = (await server.store.session().get('tenders', tender.id))!.doc.data.dateModified;
  const res = await uploadDocument(server, docs(tender.id, bid.id), {
    key: 'broker1',
    token: bid.token,
    filename: 'Proposal.pdf',
    content: 'proposal',
    type: 'application/pdf',
  });
  t.equal(res.status, 201);
  t.match(res.body.data, {
    title: 'Proposal.pdf',
    format: 'application/pdf',
    hash: /^md5:[0-9a-f]{32}$/,
    url: /\/bids\/[0-9a-f]{32}\/documents\/[0-9a-f]{32}\?download=/,
  });
  t.equal(res.headers.get('location'), `${server.url}${docs(tender.id, bid.id)}/${res.body.data.id}`);
  t.equal((await server.store.session().get('tenders', tender.id))!.doc.data.dateModified, before);
  const list = await server.request('GET', docs(tender.id, bid.id), { key: 'broker1', token: bid.token });
  t.same(
    list.body.data.map((d: any) => d.id),
    [res.body.data.id],
  );
  const download = await fetch(
    `${server.url}${new URL(res.body.data.url).pathname}${new URL(res.body.data.url).search}&acc_token=${bid.token}`,
    { headers: { authorization: 'Bearer broker1' } },
  );
  t.equal(await download.text(), 'proposal');
});

t.test('bid document refusals: another broker → 403 Forbidden; JSON → 403; others read while tendering → 403', async (t) => {
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  t.match(await uploadDocument(server, docs(tender.id, bid.id), { key: 'broker2' }), errorReply(403, 'url', 'permission', 'Forbidden'));
  t.match(
    await uploadDocument(server, docs(tender.id, bid.id), { key: 'broker', token: tender.token }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  t.match(
    await server.request('POST', docs(tender.id, bid.id), {
      key: 'broker1',
      token: bid.token,
      body: { data: { title: 'x', url: 'http://ds/x' } },
    }),
    errorReply(403, 'body', 'url', 'Can add document only from document service.'),
  );
  t.match(
    await server.request('GET', docs(tender.id, bid.id), { key: 'broker2' }),
    errorReply(403, 'body', 'data', "Can't view bid documents in current (active.tendering) tender status"),
  );
  t.match(
    await server.request('GET', `${docs(tender.id, bid.id)}/${'f'.repeat(32)}`, { key: 'broker2' }),
    errorReply(403, 'body', 'data', "Can't view bid documents in current (active.tendering) tender status"),
  );
  t.match(await server.request('GET', docs(tender.id, 'f'.repeat(32))), errorReply(404, 'url', 'bid_id', 'Not Found'));
  server.clock.set(new Date(TENDERING_END.getTime() + 1000));
  t.match(
    await uploadDocument(server, docs(tender.id, bid.id), { key: 'broker1', token: bid.token }),
    errorReply(
      403,
      'body',
      'data',
      'Document can be added only during the tendering period: from (2026-10-12T00:00:00+03:00) to (2026-10-19T00:00:00+03:00).',
    ),
  );
});

t.test('in active.auction → 403 "Can\'t add document in current (active.auction) tender status"', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server);
  t.match(
    await uploadDocument(server, docs(tender.id, bids[0].id), { key: 'broker1', token: bids[0].token }),
    errorReply(403, 'body', 'data', "Can't add document in current (active.auction) tender status"),
  );
});

t.test('in active.qualification: a bid without an active award → 403; documents become public to everyone', async (t) => {
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  const uploaded = await uploadDocument(server, docs(tender.id, bid.id), { key: 'broker1', token: bid.token, filename: 'bid.pdf' });
  server.clock.set(new Date(TENDERING_END.getTime() + 1000));
  await runChronograph(server, tender.id);
  t.match(
    await uploadDocument(server, docs(tender.id, bid.id), { key: 'broker1', token: bid.token }),
    errorReply(403, 'body', 'data', "Can't add document because award of bid is not in one of statuses ('active',)"),
  );
  const read = await server.request('GET', `${docs(tender.id, bid.id)}/${uploaded.body.data.id}`);
  t.equal(read.status, 200);
  t.equal(read.body.data.title, 'bid.pdf');
});
