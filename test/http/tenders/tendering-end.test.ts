import t from 'tap';
import { uploadDocument } from '../../fixtures/frameworks';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aBid,
  CO_TENDERING_END,
  placeBid,
  runChronograph,
  tenderAfterTendering,
  tenderInTendering,
  TENDERING_END,
  type Created,
} from '../../fixtures/tenders';

let server: TestServer;
t.beforeEach(async () => {
  server = await startTestServer();
});
t.afterEach(() => server.close());

const endTendering = async (tender: Created, end = TENDERING_END) => {
  server.clock.set(new Date(end.getTime() + 60_000));
  await runChronograph(server, tender.id);
  return (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
};

t.test('before tenderPeriod.endDate the chronograph changes nothing; next_check is the end of tendering', async (t) => {
  const tender = await tenderInTendering(server);
  await placeBid(server, tender);
  const data = await runChronograph(server, tender.id);
  t.equal(data.status, 'active.tendering');
  t.equal(data.next_check, '2026-10-19T00:00:00+03:00');
});

t.test('no bids → lot and tender unsuccessful, auction periods dropped', async (t) => {
  const data = await endTendering(await tenderInTendering(server));
  t.equal(data.status, 'unsuccessful');
  t.equal(data.lots[0].status, 'unsuccessful');
  t.notOk(data.lots[0].auctionPeriod);
  t.notOk(data.next_check);
});

t.test('draft bids are dropped at the end (remove_draft_bids): a lot with only a draft bid is unsuccessful', async (t) => {
  const tender = await tenderInTendering(server);
  const res = await server.request('POST', `/api/2.5/tenders/${tender.id}/bids`, { key: 'broker1', body: { data: aBid(tender) } });
  t.equal(res.body.data.status, 'draft');
  const data = await endTendering(tender);
  t.equal(data.status, 'unsuccessful');
  t.notOk(data.bids, 'no bids left');
});

t.test('one bid with minBidsNumber 1 → the auction is skipped: active.qualification with a pending award', async (t) => {
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  const data = await endTendering(tender);
  t.equal(data.status, 'active.qualification');
  t.notOk(data.lots[0].auctionPeriod, 'no auction for a lot of one bid');
  t.match(data.awards, [{ status: 'pending', bid_id: bid.id, lotID: tender.data.lots[0].id }]);
  t.match(data.bids, [{ id: bid.id, status: 'active', lotValues: [{ status: 'active' }] }]);
});

t.test('one bid with minBidsNumber 2 → unsuccessful, the bid and its lot value unsuccessful', async (t) => {
  const tender = await tenderInTendering(server, { config: { minBidsNumber: 2 } });
  await placeBid(server, tender);
  const data = await endTendering(tender);
  t.equal(data.status, 'unsuccessful');
  t.match(data.bids, [{ status: 'unsuccessful', lotValues: [{ status: 'unsuccessful' }] }]);
});

t.test('two bids with an auction → active.auction; bids stay private: the list → 403, the tender shows none', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server);
  const data = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.equal(data.status, 'active.auction');
  t.equal(data.date, '2026-10-19T00:01:00+03:00');
  t.ok(data.lots[0].auctionPeriod.shouldStartAfter);
  t.notOk(data.bids);
  t.match(
    await server.request('GET', `/api/2.5/tenders/${tender.id}/bids`),
    errorReply(403, 'body', 'data', "Can't view bids in current (active.auction) tender status"),
  );
  const own = await server.request('GET', `/api/2.5/tenders/${tender.id}/bids/${bids[0].id}`, { key: 'broker1', token: bids[0].token });
  t.match(own.body.data, { status: 'active', lotValues: [{ status: 'active' }] });
});

t.test('two bids without an auction (hasAuction false) → straight to active.qualification, award to the lowest', async (t) => {
  const { tender, bids } = await tenderAfterTendering(server, { config: { hasAuction: false } });
  const data = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.equal(data.status, 'active.qualification');
  t.match(data.awards, [{ status: 'pending', bid_id: bids[1].id, value: { amount: 440 } }]);
});

t.test('two lots, one with two bids and one with one → active.auction with an auction for the first lot only', async (t) => {
  const tender = await tenderInTendering(server, { lots: 2 });
  const [a, b] = tender.data.lots.map((l: any) => l.id);
  await placeBid(server, tender, 450, 1);
  const only = { lotValues: [{ value: { amount: 430 }, relatedLot: a }], status: 'pending' };
  const res = await server.request('POST', `/api/2.5/tenders/${tender.id}/bids`, {
    key: 'broker2',
    body: { data: aBid(tender, 0, 2, only) },
  });
  t.equal(res.status, 201);
  const data = await endTendering(tender);
  t.equal(data.status, 'active.auction');
  t.ok(data.lots.find((l: any) => l.id === a).auctionPeriod, 'lot with two bids keeps its auction');
  t.notOk(data.lots.find((l: any) => l.id === b).auctionPeriod, 'lot with one bid skips it');
});

t.test('competitiveOrdering: a tender change in tendering invalidates submitted bids; they do not count at the end', async (t) => {
  const tender = await tenderInTendering(server, { procedure: 'competitiveOrdering' });
  const bid = await placeBid(server, tender);
  const patch = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { title: 'нова назва' } },
  });
  t.equal(patch.status, 200);
  t.notOk(patch.body.data.bids, 'the owner does not see bids in the answer');
  const own = await server.request('GET', `/api/2.5/tenders/${tender.id}/bids/${bid.id}`, { key: 'broker1', token: bid.token });
  t.equal(own.body.data.status, 'invalid');
  const data = await endTendering(tender, CO_TENDERING_END);
  t.equal(data.status, 'unsuccessful');
  t.same(data.bids, [{ id: bid.id, status: 'invalid' }], 'an invalid bid shows only id and status');
});

t.test('competitiveOrdering: a bidder outside the agreement → 403 "Bid is not a member of agreement"', async (t) => {
  const tender = await tenderInTendering(server, { procedure: 'competitiveOrdering' });
  const res = await server.request('POST', `/api/2.5/tenders/${tender.id}/bids`, { key: 'broker1', body: { data: aBid(tender, 400, 9) } });
  t.match(res, errorReply(403, 'body', 'data', 'Bid is not a member of agreement'));
});

t.test('competitiveOrdering: a tender document added in tendering invalidates bids; too close to the end → 403', async (t) => {
  const tender = await tenderInTendering(server, { procedure: 'competitiveOrdering' });
  const bid = await placeBid(server, tender);
  const upload = await uploadDocument(server, `/api/2.5/tenders/${tender.id}/documents`, { key: 'broker', token: tender.token });
  t.equal(upload.status, 201);
  const own = await server.request('GET', `/api/2.5/tenders/${tender.id}/bids/${bid.id}`, { key: 'broker1', token: bid.token });
  t.equal(own.body.data.status, 'invalid');
  t.equal(
    (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.enquiryPeriod.invalidationDate,
    '2026-10-05T12:00:00+03:00',
  );
  server.clock.set(new Date(CO_TENDERING_END.getTime() - 2 * 86_400_000));
  const before = (await server.store.session().get('tenders', tender.id))!.rev;
  t.match(
    await uploadDocument(server, `/api/2.5/tenders/${tender.id}/documents`, { key: 'broker', token: tender.token }),
    errorReply(403, 'body', 'data', 'tenderPeriod should be extended by 4 days'),
  );
  t.equal((await server.store.session().get('tenders', tender.id))!.rev, before, 'nothing saved');
});
