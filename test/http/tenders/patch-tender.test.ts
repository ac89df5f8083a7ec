import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aTender, createLottedTender, createTender } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const patch = (id: string, token: string | undefined, data: unknown, o: { key?: string; tokenIn?: 'query' | 'header' | 'body' } = {}) =>
  server.request('PATCH', `/api/2.5/tenders/${id}`, { key: o.key ?? 'broker', token, tokenIn: o.tokenIn, body: { data } });
const get = async (id: string) => (await server.request('GET', `/api/2.5/tenders/${id}`)).body;

t.test('the owner token works in the query, the X-Access-Token header and the body', async (t) => {
  const tender = await createTender(server, aTender());
  for (const tokenIn of ['query', 'header', 'body'] as const) {
    const res = await patch(tender.id, tender.token, { description: `via ${tokenIn}` }, { tokenIn });
    t.equal(res.status, 200, tokenIn);
    t.equal(res.body.data.description, `via ${tokenIn}`);
  }
});

t.test('a change moves dateModified to now and answers {data, config}', async (t) => {
  const tender = await createTender(server, aTender());
  server.clock.advance(60_000);
  const res = await patch(tender.id, tender.token, { title: 'Нова назва' });
  t.equal(res.body.data.dateModified, '2026-10-05T12:01:00+03:00');
  t.equal(res.body.data.dateCreated, '2026-10-05T12:00:00+03:00');
  t.same(res.body.config, tender.config);
  server.clock.advance(-60_000);
});

t.test('a PATCH that changes nothing → 200, dateModified unchanged', async (t) => {
  const tender = await createTender(server, aTender());
  server.clock.advance(60_000);
  const same = await patch(tender.id, tender.token, { title: tender.data.title });
  const empty = await patch(tender.id, tender.token, {});
  t.equal(same.body.data.dateModified, '2026-10-05T12:00:00+03:00');
  t.equal(empty.body.data.dateModified, '2026-10-05T12:00:00+03:00');
  server.clock.advance(-60_000);
});

t.test('a wrong token, no token, another broker with the token → 403 url/permission; nothing changes', async (t) => {
  const tender = await createTender(server, aTender());
  const before = await get(tender.id);
  t.match(await patch(tender.id, 'f'.repeat(32), { title: 'x' }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch(tender.id, undefined, { title: 'x' }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch(tender.id, tender.token, { title: 'x' }, { key: 'broker1' }), error(403, 'url', 'permission', 'Forbidden'));
  t.same(await get(tender.id), before);
});

t.test('no API key with the right token → 403 url/permission', async (t) => {
  const tender = await createTender(server, aTender());
  const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, { token: tender.token, body: { data: { title: 'x' } } });
  t.match(res, error(403, 'url', 'permission', 'Forbidden'));
});

t.test('an unknown tender id → 404 url/tender_id', async (t) => {
  t.match(await patch('0'.repeat(32), 'x', { title: 'x' }), error(404, 'url', 'tender_id', 'Not Found'));
  t.match(await server.request('GET', '/api/2.5/tenders/nope'), error(404, 'url', 'tender_id', 'Not Found'));
});

t.test('PATCH data that is not an object → 422 "Data not available"', async (t) => {
  const tender = await createTender(server, aTender());
  t.match(await patch(tender.id, tender.token, 'x'), error(422, 'body', 'data', 'Data not available'));
});

t.test('server-set fields in a PATCH are rogue, nothing changes', async (t) => {
  const tender = await createTender(server, aTender());
  const before = await get(tender.id);
  t.match(await patch(tender.id, tender.token, { dateModified: 'x' }), error(422, 'body', 'dateModified', 'Rogue field'));
  t.match(
    await patch(tender.id, tender.token, { procurementMethodType: 'competitiveOrdering' }),
    error(422, 'body', 'procurementMethodType', 'Rogue field'),
  );
  t.match(await patch(tender.id, tender.token, { value: { foo: 1 } }), error(422, 'body', 'value', { foo: 'Rogue field' }));
  t.same(await get(tender.id), before);
});

t.test("a PATCH breaking a rule of the merged tender → the rule's error, nothing changes", async (t) => {
  const tender = await createTender(server, aTender());
  const before = await get(tender.id);
  const res = await patch(tender.id, tender.token, { value: { amount: 10 } });
  t.match(res, error(422, 'body', 'minimalStep.amount', ['Tender minimal step amount should be less than tender amount']));
  t.same(await get(tender.id), before);
});

t.test('PATCH of enquiryPeriod.endDate recomputes clarificationsUntil', async (t) => {
  const tender = await createTender(server, aTender());
  const res = await patch(tender.id, tender.token, {
    enquiryPeriod: { endDate: '2026-10-13T00:00:00+03:00' },
    tenderPeriod: { startDate: '2026-10-13T00:00:00+03:00' },
  });
  t.equal(res.status, 200);
  t.equal(res.body.data.enquiryPeriod.clarificationsUntil, '2026-10-14T00:00:00+03:00');
});

t.test('activation without a lot on every item → 422 body/item.relatedLot "This field is required"', async (t) => {
  const tender = await createTender(server, aTender());
  const res = await patch(tender.id, tender.token, { status: 'active.enquiries' });
  t.match(res, error(422, 'body', 'item.relatedLot', 'This field is required'));
  t.equal((await get(tender.id)).data.status, 'draft');
});

t.test('activation of belowThreshold → active.enquiries, date now, next_check = tenderPeriod.startDate, no auction yet', async (t) => {
  const tender = await createLottedTender(server);
  server.clock.advance(60_000);
  const res = await patch(tender.id, tender.token, { status: 'active.enquiries' });
  server.clock.advance(-60_000);
  t.equal(res.status, 200);
  t.match(res.body.data, {
    status: 'active.enquiries',
    date: '2026-10-05T12:01:00+03:00',
    dateModified: '2026-10-05T12:01:00+03:00',
    next_check: '2026-10-12T00:00:00+03:00',
    lots: [{ status: 'active' }],
  });
  t.notOk(res.body.data.lots[0].auctionPeriod);
});

t.test('a status the procedure does not have → 422 Value must be one of', async (t) => {
  const tender = await createLottedTender(server);
  const res = await patch(tender.id, tender.token, { status: 'active.tendering' });
  t.match(res, error(422, 'body', 'status', ["Value must be one of ['draft', 'active.enquiries']."]));
});

t.test('back to draft after activation → 422 status "Can\'t change status to draft"', async (t) => {
  const tender = await createLottedTender(server);
  await patch(tender.id, tender.token, { status: 'active.enquiries' });
  const res = await patch(tender.id, tender.token, { status: 'draft' });
  t.match(res, error(422, 'body', 'status', "Can't change status to draft"));
});

t.test('active.enquiries may still be edited by the owner', async (t) => {
  const tender = await createLottedTender(server);
  await patch(tender.id, tender.token, { status: 'active.enquiries' });
  const res = await patch(tender.id, tender.token, { description: 'уточнення' });
  t.equal(res.status, 200);
  t.equal(res.body.data.status, 'active.enquiries');
});

t.test('PATCH in a status that allows no edits → 403 "Can\'t update tender in current (active.tendering) status"', async (t) => {
  const tender = await createLottedTender(server);
  await patch(tender.id, tender.token, { status: 'active.enquiries' });
  server.clock.set(new Date('2026-10-12T00:00:00+03:00'));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } });
  server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
  const before = await get(tender.id);
  t.equal(before.data.status, 'active.tendering');
  const res = await patch(tender.id, tender.token, { description: 'x' });
  t.match(res, error(403, 'body', 'data', "Can't update tender in current (active.tendering) status"));
  t.same(await get(tender.id), before);
});

t.test('criteria may be posted only by the owner of a draft', async (t) => {
  const tender = await createTender(server, aTender());
  const res = await server.request('POST', `/api/2.5/tenders/${tender.id}/criteria`, { key: 'broker', body: { data: [] } });
  t.match(res, error(403, 'url', 'permission', 'Forbidden'));
});
