import t from 'tap';
import { DEFAULT_NOW, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aLot, anItem, aTender, createTender, type Created } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const NOW_TEXT = '2026-10-05T12:00:00+03:00';
const lotsPath = (tender: Created, lotId?: string) => `/api/2.5/tenders/${tender.id}/lots${lotId ? `/${lotId}` : ''}`;
const postLot = (tender: Created, data: unknown, o: { token?: string } = {}) =>
  server.request('POST', lotsPath(tender), { key: 'broker', token: o.token ?? tender.token, body: { data } });
const patchLot = (tender: Created, lotId: string, data: unknown) =>
  server.request('PATCH', lotsPath(tender, lotId), { key: 'broker', token: tender.token, body: { data } });
const patchTender = (tender: Created, data: unknown) =>
  server.request('PATCH', `/api/2.5/tenders/${tender.id}`, { key: 'broker', token: tender.token, body: { data } });

t.test('the tutorial flow: a lot added to a draft, an item related to it, then activation', async (t) => {
  const tender = await createTender(server, aTender());
  const added = await postLot(tender, {
    title: 'lot title',
    description: 'lot description',
    value: { amount: 500, currency: 'UAH' },
    minimalStep: { amount: 15, currency: 'UAH' },
  });
  t.equal(added.status, 201);
  const lot = added.body.data;
  t.match(lot, {
    title: 'lot title',
    description: 'lot description',
    id: /^[0-9a-f]{32}$/,
    status: 'active',
    value: { currency: 'UAH', amount: 500, valueAddedTaxIncluded: true },
    minimalStep: { currency: 'UAH', amount: 15, valueAddedTaxIncluded: true },
    date: NOW_TEXT,
  });
  t.equal(added.headers.get('location'), `${server.url}/api/2.5/tenders/${tender.id}/lots/${lot.id}`);

  const related = await patchTender(tender, { items: [{ ...anItem(), relatedLot: lot.id }] });
  t.equal(related.status, 200);
  const activated = await patchTender(tender, { status: 'active.enquiries' });
  t.equal(activated.status, 200, activated.text);
  t.same(
    activated.body.data.lots.map((l: { id: string }) => l.id),
    [lot.id],
  );
});

t.test('lots are read as a list and one by one, from the tender as stored', async (t) => {
  const tender = await createTender(server, aTender());
  const first = (await postLot(tender, aLot({ title: 'first' }))).body.data;
  const second = (await postLot(tender, aLot({ title: 'second' }))).body.data;
  const list = await server.request('GET', lotsPath(tender));
  t.same(
    list.body.data.map((l: { title: string }) => l.title),
    ['first', 'second'],
  );
  const one = await server.request('GET', lotsPath(tender, second.id));
  t.same(one.body.data, second);
  const stored = await server.request('GET', `/api/2.5/tenders/${tender.id}`);
  t.same(stored.body.data.lots, [first, second]);
  t.equal(stored.body.data.value.amount, 1000, 'the tender value is the sum of its lots');
});

t.test('PATCH of a lot changes only what it names and moves the tender dateModified', async (t) => {
  const tender = await createTender(server, aTender());
  const lot = (await postLot(tender, aLot())).body.data;
  server.clock.advance(60_000);
  const changed = await patchLot(tender, lot.id, { title: 'renamed', value: { amount: 700 } });
  t.equal(changed.status, 200);
  t.same(changed.body.data, { ...lot, title: 'renamed', value: { ...lot.value, amount: 700 } });
  const stored = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  t.equal(stored.dateModified, '2026-10-05T12:01:00+03:00');
  t.equal(stored.value.amount, 700);
});

t.test('refused lot requests answer the reference errors and store nothing', async (t) => {
  const tender = await createTender(server, aTender());
  const lot = (await postLot(tender, aLot())).body.data;
  const before = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body;

  t.match(
    await postLot(tender, { description: 'no title', value: { amount: 1 } }),
    error(422, 'body', 'title', ['This field is required.']),
  );
  t.match(await postLot(tender, { ...aLot(), colour: 'red' }), error(422, 'body', 'colour', 'Rogue field'));
  t.match(await postLot(tender, { ...aLot(), value: 'a lot' }), { status: 422, body: { errors: [{ name: 'value' }] } });
  t.match(await patchLot(tender, lot.id, { id: 'f'.repeat(32) }), error(422, 'body', 'id', 'Rogue field'));
  t.match(await postLot(tender, aLot(), { token: 'f'.repeat(32) }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(
    await server.request('POST', lotsPath(tender), { body: { data: aLot() }, token: tender.token }),
    error(403, 'url', 'permission', 'Forbidden'),
  );
  t.match(await patchLot(tender, 'f'.repeat(32), { title: 'x' }), error(404, 'url', 'lot_id', 'Not Found'));
  t.match(await server.request('GET', lotsPath(tender, 'f'.repeat(32))), error(404, 'url', 'lot_id', 'Not Found'));
  t.match(await server.request('GET', `/api/2.5/tenders/${'f'.repeat(32)}/lots`), error(404, 'url', 'tender_id', 'Not Found'));
  const malformed = await server.request('POST', lotsPath(tender), {
    key: 'broker',
    token: tender.token,
    raw: '{"data": {',
    contentType: 'application/json',
  });
  t.equal(malformed.status, 422);

  t.same((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body, before, 'the tender is unchanged');
});

t.test('lots cannot be added or changed once the tender is past the statuses its procedure lets change', async (t) => {
  const tender = await createTender(server, aTender());
  const lot = (await postLot(tender, aLot())).body.data;
  await patchTender(tender, { items: [{ ...anItem(), relatedLot: lot.id }], status: 'active.enquiries' });
  const enquiryEnd = Date.parse('2026-10-12T00:00:00+03:00');
  server.clock.set(new Date(enquiryEnd + 1000));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } });
  t.equal((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.status, 'active.tendering');
  t.match(await postLot(tender, aLot()), error(403, 'body', 'data', "Can't add lot in current (active.tendering) tender status"));
  t.match(
    await patchLot(tender, lot.id, { title: 'late' }),
    error(403, 'body', 'data', "Can't update lot in current (active.tendering) tender status"),
  );
});

t.test('DELETE of a lot nothing names → 200 with the lot; the tender keeps the others', async (t) => {
  server.clock.set(DEFAULT_NOW);
  const tender = await createTender(server, aTender());
  const kept = (await postLot(tender, aLot())).body.data;
  const dropped = (await postLot(tender, aLot({ title: 'другий лот' }))).body.data;
  const deleted = await server.request('DELETE', lotsPath(tender, dropped.id), { key: 'broker', token: tender.token });
  t.equal(deleted.status, 200, deleted.text);
  t.same(deleted.body.data, dropped);
  t.same(
    (await server.request('GET', lotsPath(tender))).body.data.map((l: { id: string }) => l.id),
    [kept.id],
  );
  t.equal((await server.request('DELETE', lotsPath(tender, kept.id), { key: 'broker', token: tender.token })).status, 200);
  t.notOk((await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data.lots, 'no lots left: no lots member');
});

t.test('DELETE of a lot is refused while an item names it, past the editable statuses, and for others', async (t) => {
  server.clock.set(DEFAULT_NOW);
  const tender = await createTender(server, aTender());
  const lot = (await postLot(tender, aLot())).body.data;
  const other = (await postLot(tender, aLot({ title: 'другий лот' }))).body.data;
  await patchTender(tender, { items: [{ ...anItem(), relatedLot: lot.id }] });
  const del = (lotId: string, o: { key?: string; token?: string } = {}) =>
    server.request('DELETE', lotsPath(tender, lotId), { key: o.key ?? 'broker', token: o.token ?? tender.token });
  t.match(await del(lot.id), error(422, 'body', 'data', 'Cannot delete lot with related items'));
  t.match(await del('f'.repeat(32)), error(404, 'url', 'lot_id', 'Not Found'));
  t.match(await del(other.id, { key: 'broker1' }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await del(other.id, { token: 'f'.repeat(32) }), error(403, 'url', 'permission', 'Forbidden'));
  t.equal(
    (
      await patchTender(tender, {
        status: 'active.enquiries',
        items: [
          { ...anItem(), relatedLot: lot.id },
          { ...anItem(), relatedLot: other.id },
        ],
      })
    ).status,
    200,
  );
  server.clock.set(new Date(Date.parse('2026-10-12T00:00:00+03:00') + 1000));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, { key: 'chronograph', body: { data: { id: tender.id } } });
  t.match(await del(other.id), error(403, 'body', 'data', "Can't delete lot in current (active.tendering) tender status"));
  t.equal((await server.request('GET', lotsPath(tender))).body.data.length, 2, 'refusals deleted nothing');
});

t.test('PATCH or DELETE of an unknown lot → 404 lot_id before any 403, as the reference resolves the lot first', async (t) => {
  server.clock.set(DEFAULT_NOW);
  const tender = await createTender(server, aTender());
  const unknown = lotsPath(tender, 'f'.repeat(32));
  const others = [{ key: 'broker1', token: tender.token }, { key: 'broker', token: 'f'.repeat(32) }, { token: tender.token }];
  for (const who of others) {
    t.match(await server.request('PATCH', unknown, { ...who, body: { data: { title: 'x' } } }), error(404, 'url', 'lot_id', 'Not Found'));
    t.match(await server.request('DELETE', unknown, who), error(404, 'url', 'lot_id', 'Not Found'));
  }
});
