import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aBid,
  belowThresholdConfig,
  createLottedTender,
  placeBid,
  TENDERING_END,
  tenderInTendering,
  type Created,
} from '../../fixtures/tenders';

let server: TestServer;
t.beforeEach(async () => {
  server = await startTestServer();
});
t.afterEach(() => server.close());

const bids = (tender: Created) => `/api/2.5/tenders/${tender.id}/bids`;
const post = (tender: Created, data: unknown, key = 'broker1') => server.request('POST', bids(tender), { key, body: { data } });
const stored = async (id: string) => (await server.store.session().get('tenders', id))!;

t.test('POST a bid in active.tendering → 201 draft bid with id, date, lotValues dated and pending, its own token', async (t) => {
  const tender = await tenderInTendering(server, { lots: 1 });
  const before = (await stored(tender.id)).doc.data.dateModified;
  const res = await post(tender, aBid(tender, 450));
  t.equal(res.status, 201);
  const bid = res.body.data;
  t.equal(res.headers.get('location'), `${server.url}${bids(tender)}/${bid.id}`);
  t.match(bid, { status: 'draft', id: /^[0-9a-f]{32}$/, date: '2026-10-12T01:00:00+03:00' });
  t.same(bid.lotValues, [
    {
      status: 'pending',
      value: { amount: 450, currency: 'UAH', valueAddedTaxIncluded: true },
      relatedLot: tender.data.lots[0].id,
      date: '2026-10-12T01:00:00+03:00',
    },
  ]);
  t.match(res.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
  t.notOk(bid.owner, 'the bid owner is not in the bid');
  const doc = (await stored(tender.id)).doc;
  t.equal(doc.data.dateModified, before, 'a bid leaves the tender dateModified alone');
});

t.test('POST a bid with status pending → 201 pending; a tender without lots takes value', async (t) => {
  const tender = await tenderInTendering(server, { lots: 0 });
  const res = await post(tender, aBid(tender, 400, 1, { status: 'pending' }));
  t.equal(res.status, 201);
  t.match(res.body.data, { status: 'pending', value: { amount: 400, currency: 'UAH', valueAddedTaxIncluded: true } });
});

t.test("POST a bid with status active → 403 body/bid \"Bid can be added only with status: ('draft', 'pending').\"", async (t) => {
  const tender = await tenderInTendering(server);
  const before = await stored(tender.id);
  t.match(
    await post(tender, aBid(tender, 400, 1, { status: 'active' })),
    errorReply(403, 'body', 'bid', "Bid can be added only with status: ('draft', 'pending')."),
  );
  t.equal((await stored(tender.id)).rev, before.rev, 'nothing saved');
});

t.test('POST a bid in active.enquiries → 403 "Can\'t add bid in current (active.enquiries) tender status"', async (t) => {
  const tender = await createLottedTender(server);
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  t.match(await post(tender, aBid(tender)), errorReply(403, 'body', 'data', "Can't add bid in current (active.enquiries) tender status"));
});

t.test('POST a bid after tenderPeriod.endDate, before the chronograph ran → 403 with the tendering period', async (t) => {
  const tender = await tenderInTendering(server);
  server.clock.set(new Date(TENDERING_END.getTime() + 1000));
  t.match(
    await post(tender, aBid(tender)),
    errorReply(
      403,
      'body',
      'data',
      'Bid can be added only during the tendering period: from (2026-10-12T00:00:00+03:00) to (2026-10-19T00:00:00+03:00).',
    ),
  );
});

t.test('POST a bid without a key → 403 url/permission/Forbidden; by a broker without level 2 → 403 url/accreditation', async (t) => {
  const tender = await tenderInTendering(server);
  t.match(await server.request('POST', bids(tender), { body: { data: aBid(tender) } }), errorReply(403, 'url', 'permission', 'Forbidden'));
  const dir = mkdtempSync(join(tmpdir(), 'auth-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'auth.ini'), '[brokers]\nbroker = broker\nbroker1 = broker1,1\n[chronograph]\nchronograph = chronograph\n');
  const limited = await startTestServer({ env: { AUTH_FILE: join(dir, 'auth.ini') } });
  t.teardown(() => limited.close());
  const other = await tenderInTendering(limited);
  const res = await limited.request('POST', `/api/2.5/tenders/${other.id}/bids`, { key: 'broker1', body: { data: aBid(other) } });
  t.match(res, errorReply(403, 'url', 'accreditation', 'Broker Accreditation level does not permit bid creation'));
});

t.test('POST a bid to an unknown tender → 404 url/tender_id', async (t) => {
  const res = await server.request('POST', `/api/2.5/tenders/${'f'.repeat(32)}/bids`, { key: 'broker1', body: { data: {} } });
  t.match(res, errorReply(404, 'url', 'tender_id', 'Not Found'));
});

t.test('POST bids breaking the value rules → 422 with the reference texts', async (t) => {
  const plain = await tenderInTendering(server, { lots: 0 });
  const cases: [unknown, string, unknown][] = [
    [{ tenderers: aBid(plain).tenderers }, 'value', ['This field is required.']],
    [aBid(plain, 501), 'value', ['value of bid should be less than value of tender']],
    [
      aBid(plain, 400, 1, { value: { amount: 400, currency: 'USD' } }),
      'value',
      ['currency of bid should be identical to currency of value of tender'],
    ],
    [
      aBid(plain, 400, 1, { value: { amount: 400, valueAddedTaxIncluded: false } }),
      'value',
      ['valueAddedTaxIncluded of bid should be identical to valueAddedTaxIncluded of value of tender'],
    ],
    [aBid(plain, 400, 1, { items: [{ id: 'f'.repeat(32) }] }), 'data', 'Bid items ids should be on tender items ids'],
    [aBid(plain, 400, 1, { tenderers: [] }), 'tenderers', ['Please provide at least 1 item.']],
    [
      aBid(plain, 400, 1, { tenderers: [aBid(plain).tenderers[0], aBid(plain).tenderers[0]] }),
      'tenderers',
      ['Please provide no more than 1 item.'],
    ],
    [aBid(plain, 400, 1, { items: Array.from({ length: 1001 }, () => ({})) }), 'items', ['Please provide no more than 1000 items.']],
    [aBid(plain, 400, 1, { documents: [] }), 'documents', 'Rogue field'],
  ];
  for (const [data, name, description] of cases) t.match(await post(plain, data), errorReply(422, 'body', name, description), name);
  const other = await startTestServer();
  t.teardown(() => other.close());
  const lotted = await tenderInTendering(other, { lots: 1 });
  const lot = lotted.data.lots[0].id;
  const postOther = (data: unknown) => other.request('POST', bids(lotted), { key: 'broker1', body: { data } });
  t.match(
    await postOther(aBid(lotted, 400, 1, { lotValues: undefined })),
    errorReply(422, 'body', 'lotValues', ['This field is required.']),
  );
  t.match(
    await postOther(aBid(lotted, 400, 1, { value: { amount: 1 } })),
    errorReply(422, 'body', 'value', ['value should be posted for each lot of bid']),
  );
  t.match(
    await postOther(
      aBid(lotted, 400, 1, {
        lotValues: [
          { value: { amount: 1 }, relatedLot: lot },
          { value: { amount: 2 }, relatedLot: lot },
        ],
      }),
    ),
    errorReply(422, 'body', 'lotValues', ["bids don't allow duplicated proposals"]),
  );
  t.match(
    await postOther(aBid(lotted, 400, 1, { lotValues: [{ value: { amount: 1 }, relatedLot: 'e'.repeat(32) }] })),
    errorReply(422, 'body', 'lotValues', [{ relatedLot: ['relatedLot should be one of lots'] }]),
  );
  t.match(
    await postOther(aBid(lotted, 501)),
    errorReply(422, 'body', 'lotValues', [{ value: ['value of bid should be less than value of lot'] }]),
  );
});

t.test('hasValueRestriction false lets a bid exceed the tender value → 201', async (t) => {
  const tender = await tenderInTendering(server, { lots: 0, config: { hasValueRestriction: false } });
  t.equal((await post(tender, aBid(tender, 900))).status, 201);
});

t.test('while tendering lasts: the owner reads the bid; another broker → 403, the list → 403, the tender shows no bids', async (t) => {
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  const own = await server.request('GET', `${bids(tender)}/${bid.id}`, { key: 'broker1', token: bid.token });
  t.equal(own.status, 200);
  t.equal(own.body.data.lotValues[0].value.amount, 450);
  t.match(
    await server.request('GET', `${bids(tender)}/${bid.id}`, { key: 'broker2' }),
    errorReply(403, 'body', 'data', "Can't view bid in current (active.tendering) tender status"),
  );
  t.match(
    await server.request('GET', `${bids(tender)}/${bid.id}`, { key: 'broker1', token: tender.token }),
    errorReply(403, 'body', 'data', "Can't view bid in current (active.tendering) tender status"),
  );
  t.match(
    await server.request('GET', bids(tender)),
    errorReply(403, 'body', 'data', "Can't view bids in current (active.tendering) tender status"),
  );
  const view = await server.request('GET', `/api/2.5/tenders/${tender.id}`, { key: 'broker', token: tender.token });
  t.notOk(view.body.data.bids, 'no bids in the tender, not even for its owner');
  const feed = await server.request('GET', '/api/2.5/tenders?opt_fields=bids,status');
  t.notOk(feed.body.data.find((e: any) => e.id === tender.id).bids, 'no bids in the feed');
});

t.test('GET an unknown bid → 404 url/bid_id', async (t) => {
  const tender = await tenderInTendering(server);
  t.match(await server.request('GET', `${bids(tender)}/${'f'.repeat(32)}`), errorReply(404, 'url', 'bid_id', 'Not Found'));
});

t.test('PATCH a draft bid to pending by its owner → 200; a lot value change re-dates that lot value', async (t) => {
  const tender = await tenderInTendering(server);
  const created = await post(tender, aBid(tender, 450));
  const id = created.body.data.id;
  server.clock.advance(60_000);
  const res = await server.request('PATCH', `${bids(tender)}/${id}`, {
    key: 'broker1',
    token: created.body.access.token,
    body: { data: { status: 'pending', lotValues: [{ value: { amount: 440 } }] } },
  });
  t.equal(res.status, 200);
  t.match(res.body.data, {
    status: 'pending',
    lotValues: [{ value: { amount: 440, currency: 'UAH' }, date: '2026-10-12T01:01:00+03:00' }],
  });
});

t.test(
  'PATCH refusals: another broker → 403 Forbidden; status active → 403 body/bid; rule broken → 422; after the period → 403',
  async (t) => {
    const tender = await tenderInTendering(server);
    const bid = await placeBid(server, tender);
    const patch = (data: unknown, key = 'broker1', token: string | undefined = bid.token) =>
      server.request('PATCH', `${bids(tender)}/${bid.id}`, { key, token, body: { data } });
    const before = await stored(tender.id);
    t.match(await patch({ status: 'pending' }, 'broker2', undefined), errorReply(403, 'url', 'permission', 'Forbidden'));
    t.match(await patch({ status: 'pending' }, 'broker1', 'f'.repeat(32)), errorReply(403, 'url', 'permission', 'Forbidden'));
    t.match(await patch({ status: 'active' }), errorReply(403, 'body', 'bid', "Can't update bid to (active) status"));
    t.match(
      await patch({ lotValues: [{ value: { amount: 600 } }] }),
      errorReply(422, 'body', 'lotValues', [{ value: ['value of bid should be less than value of lot'] }]),
    );
    t.match(await patch({ foo: 1 }), errorReply(422, 'body', 'foo', 'Rogue field'));
    t.equal((await stored(tender.id)).rev, before.rev, 'nothing saved');
    server.clock.set(new Date(TENDERING_END.getTime() + 1000));
    t.match(
      await patch({ status: 'pending' }),
      errorReply(
        403,
        'body',
        'data',
        'Bid can be updated only during the tendering period: from (2026-10-12T00:00:00+03:00) to (2026-10-19T00:00:00+03:00).',
      ),
    );
  },
);

t.test('DELETE by the owner while tendering → 200 with the bid, gone after; by another broker → 403; after the end → 403', async (t) => {
  const tender = await tenderInTendering(server);
  const bid = await placeBid(server, tender);
  t.match(
    await server.request('DELETE', `${bids(tender)}/${bid.id}`, { key: 'broker2' }),
    errorReply(403, 'url', 'permission', 'Forbidden'),
  );
  const kept = await placeBid(server, tender, 430, 2, 'broker2');
  const res = await server.request('DELETE', `${bids(tender)}/${bid.id}`, { key: 'broker1', token: bid.token });
  t.equal(res.status, 200);
  t.equal(res.body.data.id, bid.id);
  t.match(
    await server.request('GET', `${bids(tender)}/${bid.id}`, { key: 'broker1', token: bid.token }),
    errorReply(404, 'url', 'bid_id', 'Not Found'),
  );
  server.clock.set(new Date(TENDERING_END.getTime() + 1000));
  t.match(
    await server.request('DELETE', `${bids(tender)}/${kept.id}`, { key: 'broker2', token: kept.token }),
    errorReply(
      403,
      'body',
      'data',
      'Bid can be deleted only during the tendering period: from (2026-10-12T00:00:00+03:00) to (2026-10-19T00:00:00+03:00).',
    ),
  );
});

t.test('after tendering (no auction): bids are public, invalid ones only as id and status', async (t) => {
  const tender = await tenderInTendering(server, { config: belowThresholdConfig({ hasAuction: false }) });
  const first = await placeBid(server, tender, 450, 1);
  await placeBid(server, tender, 440, 2, 'broker2');
  server.clock.set(new Date(TENDERING_END.getTime() + 1000));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } });
  const list = await server.request('GET', bids(tender));
  t.equal(list.status, 200);
  t.same(
    list.body.data.map((b: any) => [b.lotValues[0].value.amount, b.status]),
    [
      [450, 'active'],
      [440, 'active'],
    ],
  );
  const one = await server.request('GET', `${bids(tender)}/${first.id}`, { key: 'broker2' });
  t.equal(one.body.data.tenderers[0].name, 'Постачальник 1');
  const view = await server.request('GET', `/api/2.5/tenders/${tender.id}`);
  t.equal(view.body.data.bids.length, 2);
});
