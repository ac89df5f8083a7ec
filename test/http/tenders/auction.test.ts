import t from 'tap';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { tenderAfterTendering, tenderInTendering } from '../../fixtures/tenders';

let server: TestServer;
t.beforeEach(async () => {
  server = await startTestServer();
});
t.afterEach(() => server.close());

const auction = (id: string, lot = '') => `/api/2.5/tenders/${id}/auction${lot ? `/${lot}` : ''}`;
const send = (method: string, path: string, data?: unknown, key = 'auction') =>
  server.request(method, path, { key, ...(data === undefined ? {} : { body: { data } }) });
const rev = async (id: string) => (await server.store.session().get('tenders', id))!.rev;
const AUCTION = 'https://auction.example.org/tenders/x';

t.test('GET /auction by a broker or without a key → 403 url/permission/Forbidden; of an unknown tender → 404', async (t) => {
  const { tender } = await tenderAfterTendering(server);
  t.match(await send('GET', auction(tender.id), undefined, 'broker'), errorReply(403, 'url', 'permission', 'Forbidden'));
  t.match(await server.request('GET', auction(tender.id)), errorReply(403, 'url', 'permission', 'Forbidden'));
  t.match(await send('GET', auction('f'.repeat(32))), errorReply(404, 'url', 'tender_id', 'Not Found'));
});

t.test('the auction endpoints outside active.auction → 403 naming the operation and the status', async (t) => {
  const tender = await tenderInTendering(server);
  const lot = tender.data.lots[0].id;
  t.match(
    await send('GET', auction(tender.id)),
    errorReply(403, 'body', 'data', "Can't get auction info in current (active.tendering) tender status"),
  );
  t.match(
    await send('POST', auction(tender.id), {}),
    errorReply(403, 'body', 'data', "Can't report auction results in current (active.tendering) tender status"),
  );
  t.match(
    await send('PATCH', auction(tender.id, lot), {}),
    errorReply(403, 'body', 'data', "Can't update auction urls in current (active.tendering) tender status"),
  );
});

t.test('GET /auction in active.auction → 200: the auction view with the procuring entity, bids without their tenderers', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server);
  const res = await send('GET', auction(tender.id));
  t.equal(res.status, 200);
  t.match(res.body.data, {
    id: tender.id,
    status: 'active.auction',
    tenderID: tender.data.tenderID,
    lots: [{ id: tender.data.lots[0].id }],
  });
  t.same(
    res.body.data.bids.map((b: any) => b.id),
    bids.map((b) => b.id),
  );
  t.notOk(res.body.data.bids[0].tenderers);
  const { awardCriteria, procuringEntity, value } = tender.data;
  t.match(res.body.data, { awardCriteria, procuringEntity, value }, "HEAD's awardCriteria, procuringEntity and value");
  t.equal(res.body.config.hasAuction, true);
});

t.test('PATCH /auction on a tender with lots → 422 bids [{participationUrl: [url should be posted for each lot of bid]}]', async (t) => {
  const { tender } = await tenderAfterTendering(server);
  const res = await send('PATCH', auction(tender.id), { auctionUrl: AUCTION });
  t.match(res, errorReply(422, 'body', 'bids', [{ participationUrl: ['url should be posted for each lot of bid'] }]));
});

t.test('lot endpoints for a lot that is not active → 403 "Can … only in active lot status"', async (t) => {
  const { tender } = await tenderAfterTendering(server);
  const other = 'e'.repeat(32);
  t.match(
    await send('PATCH', auction(tender.id, other), {}),
    errorReply(403, 'body', 'data', 'Can update auction urls only in active lot status'),
  );
  t.match(
    await send('POST', auction(tender.id, other), {}),
    errorReply(403, 'body', 'data', 'Can report auction results only in active lot status'),
  );
});

t.test('PATCH /auction/{lot_id} refusals → 422 with the reference texts, nothing saved', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server);
  const lot = tender.data.lots[0].id;
  const before = await rev(tender.id);
  const lots = [{ id: lot, auctionUrl: AUCTION }];
  const urls = (extra: object = {}) =>
    bids.map((b) => ({ id: b.id, lotValues: [{ relatedLot: lot, participationUrl: `${AUCTION}?b=${b.id}`, ...extra }] }));
  const cases: [unknown, string, unknown][] = [
    [{ lots: [], bids: urls() }, 'lots', ['Number of lots did not match the number of tender lots']],
    [{ lots: [{ id: lot }], bids: urls() }, 'lots', ['Auction url required']],
    [
      { lots: [{ id: 'e'.repeat(32), auctionUrl: AUCTION }], bids: urls() },
      'lots',
      ['Auction lots should be identical to the tender lots'],
    ],
    [{ lots, bids: urls().slice(1) }, 'bids', ['Number of auction results did not match the number of tender bids']],
    [{ lots, bids: [...urls().slice(1), { id: 'e'.repeat(32) }] }, 'bids', ['Auction bids should be identical to the tender bids']],
    [{ lots, bids: urls().reverse() }, 'bids', ['Auction bids should be identical to the tender bids']],
    [{ lots, bids: bids.map((b) => ({ id: b.id, lotValues: [{ relatedLot: lot }] })) }, 'bids', ['Auction participation url required']],
    [
      { lots, bids: bids.map((b) => ({ id: b.id, lotValues: [{}, {}] })) },
      'bids',
      ['Number of lots of auction results did not match the number of tender lots'],
    ],
    [
      { lots, bids: bids.map((b) => ({ id: b.id, lotValues: [{ relatedLot: 'e'.repeat(32) }] })) },
      'bids',
      ['Auction bid.lotValues should be identical to the tender bid.lotValues'],
    ],
    [{ lots: [{ id: lot, auctionUrl: 'not a url' }], bids: urls() }, 'lots', [{ auctionUrl: ['Not a well formed URL.'] }]],
    [{ bids: urls() }, 'lots', ['This field is required.']],
  ];
  for (const [data, name, description] of cases)
    t.match(await send('PATCH', auction(tender.id, lot), data), errorReply(422, 'body', name, description), JSON.stringify(description));
  t.equal(await rev(tender.id), before, 'nothing saved');
});

t.test('PATCH /auction/{lot_id} → 200: the lot auctionUrl and each bid participationUrl, ids taken by position', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server);
  const lot = tender.data.lots[0].id;
  const res = await send('PATCH', auction(tender.id, lot), {
    lots: [{ auctionUrl: AUCTION }],
    bids: bids.map((b) => ({ lotValues: [{ participationUrl: `${AUCTION}?b=${b.id}` }] })),
  });
  t.equal(res.status, 200);
  t.equal(res.body.data.lots[0].auctionUrl, AUCTION);
  t.same(
    res.body.data.bids.map((b: any) => b.lotValues[0].participationUrl),
    bids.map((b) => `${AUCTION}?b=${b.id}`),
  );
  t.equal(res.body.data.status, 'active.auction');
});

t.test('POST /auction/{lot_id} refusals → 422, nothing saved', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server);
  const lot = tender.data.lots[0].id;
  const before = await rev(tender.id);
  t.match(
    await send('POST', auction(tender.id, lot), { bids: [] }),
    errorReply(422, 'body', 'bids', ['Number of auction results did not match the number of tender bids']),
  );
  t.match(
    await send('POST', auction(tender.id, lot), { bids: [{ id: bids[1].id }, { id: bids[0].id }] }),
    errorReply(422, 'body', 'bids', ['Auction bids should be identical to the tender bids']),
  );
  t.match(await send('POST', auction(tender.id, lot), {}), errorReply(422, 'body', 'bids', ['This field is required.']));
  t.match(
    await send('POST', auction(tender.id, lot), { bids: bids.map((b) => ({ id: b.id, lotValues: [{ value: { amount: -1 } }] })) }),
    errorReply(422, 'body', 'bids', [
      { lotValues: [{ value: { amount: ['Float value should be greater than 0.'] } }] },
      { lotValues: [{ value: { amount: ['Float value should be greater than 0.'] } }] },
    ]),
  );
  t.equal(await rev(tender.id), before, 'nothing saved');
});

t.test('POST /auction/{lot_id} → 200: final values, auction over, award for the lowest, bids public; a second POST → 403', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server);
  const lot = tender.data.lots[0].id;
  const res = await send('POST', auction(tender.id, lot), {
    bids: [{ lotValues: [{ value: { amount: 420 } }] }, { lotValues: [{ value: { amount: 430 } }] }],
  });
  t.equal(res.status, 200);
  t.equal(res.body.data.status, 'active.qualification');
  t.match(res.body.data.lots[0].auctionPeriod, { startDate: '2026-10-19T00:01:00+03:00', endDate: '2026-10-19T00:01:00+03:00' });
  t.match(res.body.data.awards, [{ status: 'pending', bid_id: bids[0].id, value: { amount: 420 } }]);
  t.ok(res.body.data.bids[0].tenderers, 'tenderers in the view after the auction');
  const view = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.same(
    view.bids.map((b: any) => b.lotValues[0].value.amount),
    [420, 430],
  );
  t.match(
    await send('POST', auction(tender.id, lot), {}),
    errorReply(403, 'body', 'data', "Can't report auction results in current (active.qualification) tender status"),
  );
});

t.test('tender without lots: PATCH /auction and POST /auction refusals and results', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server, { lots: 0 });
  t.match(
    await send('PATCH', auction(tender.id), { bids: [{}] }),
    errorReply(422, 'body', 'bids', ['Number of bids did not match the number of tender bids']),
  );
  t.match(
    await send('PATCH', auction(tender.id), { bids: [{ id: bids[1].id }, { id: bids[0].id }] }),
    errorReply(422, 'body', 'bids', ['Auction bids should be identical to the tender bids']),
  );
  t.match(
    await send('POST', auction(tender.id), { bids: [{}] }),
    errorReply(422, 'body', 'bids', ['Number of auction results did not match the number of tender bids']),
  );
  t.match(
    await send('POST', auction(tender.id), { bids: [{ id: bids[1].id }, { id: bids[0].id }] }),
    errorReply(422, 'body', 'bids', ['Auction bids should be identical to the tender bids']),
  );
  const urls = await send('PATCH', auction(tender.id), {
    auctionUrl: AUCTION,
    bids: bids.map((b) => ({ participationUrl: `${AUCTION}?b=${b.id}` })),
  });
  t.equal(urls.status, 200);
  t.equal(urls.body.data.auctionUrl, AUCTION);
  const res = await send('POST', auction(tender.id), { bids: [{ value: { amount: 400 } }, { value: { amount: 410 } }] });
  t.equal(res.status, 200);
  t.match(res.body.data, {
    status: 'active.qualification',
    auctionPeriod: { endDate: '2026-10-19T00:01:00+03:00' },
    awards: [{ bid_id: bids[0].id, value: { amount: 400 } }],
  });
});
