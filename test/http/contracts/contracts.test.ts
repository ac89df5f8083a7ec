import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCompetitiveOrderingTender,
  aContract,
  anItem,
  aTender,
  competitiveOrderingConfig,
  createTender,
  insertAgreement,
  supplier,
} from '../../fixtures/tenders';

const HIDDEN = 'Приховано';
const HIDDEN_DATE = '1111-11-11T00:00:00+02:00';

let server: TestServer;
let restrictedTender: { id: string; tenderID: string };
let openTender: { id: string; tenderID: string };
t.before(async () => {
  server = await startTestServer();
  const agreementId = await insertAgreement(server, { restricted: true });
  const r = await createTender(server, aCompetitiveOrderingTender(agreementId), competitiveOrderingConfig({ restricted: true }));
  restrictedTender = { id: r.id, tenderID: r.data.tenderID };
  const o = await createTender(server, aTender());
  openTender = { id: o.id, tenderID: o.data.tenderID };
});
t.teardown(() => server.close());

const create = (data: unknown, key = 'contracting') => server.request('POST', '/api/2.5/contracts', { key, body: { data } });
async function created(tenderId: string, overrides = {}) {
  const res = await create(aContract(tenderId, overrides));
  if (res.status !== 201) throw new Error(res.text);
  return { id: res.body.data.id as string, token: res.body.access.token as string, body: res.body };
}
const patch = (id: string, token: string | undefined, data: unknown, key = 'broker') =>
  server.request('PATCH', `/api/2.5/contracts/${id}`, { key, token, body: { data } });

t.test('the contracting system creates a pending contract of a tender → 201 with Location, access, config', async (t) => {
  const res = await create(aContract(openTender.id));
  t.equal(res.status, 201);
  const d = res.body.data;
  t.equal(res.headers.get('location'), `${server.url}/api/2.5/contracts/${d.id}`);
  t.match(d, {
    id: /^[0-9a-f]{32}$/,
    contractID: `${openTender.tenderID}-a1`,
    status: 'pending',
    owner: 'broker',
    tender_id: openTender.id,
    dateCreated: '2026-10-05T12:00:00+03:00',
    dateModified: '2026-10-05T12:00:00+03:00',
  });
  t.same(res.body.config, { restricted: false });
  t.match(res.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
  const second = await create(aContract(openTender.id));
  t.equal(second.body.data.contractID, `${openTender.tenderID}-a2`);
});

t.test(
  "items' attributes from the contracting system are kept, and through the owner's PATCH of the items; one without a name → 422",
  async (t) => {
    const attributes = [
      { name: 'Форма випуску', values: ['Розчин для інфузій', 'Таблетки'] },
      { name: 'Доза діючої речовини', unit: { name: 'кілограми', code: 'KGM' }, value: 5 },
    ];
    const item = { ...anItem(), attributes };
    const c = await created(openTender.id, { items: [item] });
    t.same(c.body.data.items[0].attributes, attributes);
    t.same((await server.request('GET', `/api/2.5/contracts/${c.id}`)).body.data.items[0].attributes, attributes);
    t.match(
      await create(aContract(openTender.id, { items: [{ ...item, attributes: [{ value: 5 }] }] })),
      error(422, 'body', 'items', [{ attributes: [{ name: ['This field is required.'] }] }]),
    );
    const items = [{ ...c.body.data.items[0], quantity: 7 }];
    t.same((await patch(c.id, c.token, { items })).body.data.items, items);
    t.same((await server.request('GET', `/api/2.5/contracts/${c.id}`)).body.data.items[0].attributes, attributes);
  },
);

t.test('a contract of a restricted tender is restricted', async (t) => {
  const res = await create(aContract(restrictedTender.id));
  t.same(res.body.config, { restricted: true });
});

t.test('a broker or an anonymous client may not create contracts → 403 url/permission', async (t) => {
  t.match(await create(aContract(openTender.id), 'broker'), error(403, 'url', 'permission', 'Forbidden'));
  t.match(
    await server.request('POST', '/api/2.5/contracts', { body: { data: aContract(openTender.id) } }),
    error(403, 'url', 'permission', 'Forbidden'),
  );
});

t.test('an unknown tender → 422 tender_id', async (t) => {
  t.match(await create(aContract('f'.repeat(32))), error(422, 'body', 'tender_id', ['tender_id should be one of tenders']));
});

t.test('missing suppliers, rogue fields, suppliers without scale → 422 with the field', async (t) => {
  const { suppliers: _s, ...noSuppliers } = aContract(openTender.id);
  t.match(await create(noSuppliers), error(422, 'body', 'suppliers', ['This field is required.']));
  t.match(await create(aContract(openTender.id, { foo: 1 })), error(422, 'body', 'foo', 'Rogue field'));
  const { scale: _c, ...noScale } = supplier('Постачальник', '1');
  t.match(
    await create(aContract(openTender.id, { suppliers: [noScale] })),
    error(422, 'body', 'suppliers', [{ scale: ['This field is required.'] }]),
  );
});

t.test('GET /contracts/{id} → {data, config}; unknown id → 404 url/contract_id', async (t) => {
  const c = await created(openTender.id);
  const res = await server.request('GET', `/api/2.5/contracts/${c.id}`);
  t.same(res.body, { data: c.body.data, config: { restricted: false } });
  t.match(await server.request('GET', `/api/2.5/contracts/${'0'.repeat(32)}`), error(404, 'url', 'contract_id', 'Not Found'));
});

t.test('restricted contract: anonymous and other brokers get the hidden view, by the spec table (docs/masking.md §Contract)', async (t) => {
  const c = await created(restrictedTender.id, { changes: [{ rationale: 'Причина', rationale_en: 'Reason', rationale_ru: 'Причина' }] });
  for (const key of [undefined, 'broker1']) {
    const { data } = (await server.request('GET', `/api/2.5/contracts/${c.id}`, { key })).body;
    const s = data.suppliers[0];
    t.match(
      s,
      {
        name: HIDDEN,
        identifier: { id: HIDDEN, legalName: HIDDEN, scheme: 'UA-EDR' },
        address: { streetAddress: HIDDEN, locality: HIDDEN, region: HIDDEN, postalCode: HIDDEN, countryName: HIDDEN },
        contactPoint: { name: HIDDEN, telephone: HIDDEN, email: HIDDEN },
        scale: HIDDEN,
        signerInfo: { name: HIDDEN, email: HIDDEN, telephone: HIDDEN, iban: HIDDEN, position: HIDDEN, authorizedBy: HIDDEN },
      },
      String(key),
    );
    t.match(data.items[0], {
      deliveryDate: { startDate: HIDDEN_DATE, endDate: HIDDEN_DATE },
      deliveryAddress: { streetAddress: HIDDEN },
      deliveryLocation: { latitude: 0, longitude: 0 },
    });
    t.match(data.changes[0], { rationale: HIDDEN, rationale_en: HIDDEN, rationale_ru: HIDDEN });
    t.match(data.documents[0], { title: HIDDEN, url: HIDDEN, hash: 'md5:' + '0'.repeat(32) });
    t.equal(data.procuringEntity.name, 'Державне управління справами');
  }
});

t.test(
  'restricted contract: every contact field of a supplier is hidden — email, faxNumber, name_en, each additionalContactPoints field (issue 17 defect 5)',
  async (t) => {
    const contact = {
      name: 'Контакт',
      name_en: 'Contact',
      name_ru: 'Контакт ру',
      telephone: '+380440000002',
      email: 'c@example.com',
      faxNumber: '+380440000003',
      url: 'https://c.example.com',
    };
    const c = await created(restrictedTender.id, {
      suppliers: [{ ...supplier('Постачальник', '12345678'), contactPoint: contact, additionalContactPoints: [contact, contact] }],
    });
    const masked = { name: HIDDEN, name_en: 'Hidden', name_ru: HIDDEN, telephone: HIDDEN, email: HIDDEN, faxNumber: HIDDEN, url: HIDDEN };
    for (const key of [undefined, 'broker1']) {
      const { data } = (await server.request('GET', `/api/2.5/contracts/${c.id}`, { key })).body;
      t.same(data.suppliers[0].contactPoint, masked, `contactPoint as ${key ?? 'anonymous'}`);
      t.same(data.suppliers[0].additionalContactPoints, [masked, masked], `additionalContactPoints as ${key ?? 'anonymous'}`);
      const feed = (await server.request('GET', '/api/2.5/contracts?opt_fields=status', { key })).text;
      t.notOk(feed.includes('c@example.com'), 'nothing of it in the feed');
    }
    const whole = (await server.request('GET', `/api/2.5/contracts/${c.id}`, { key: 'broker' })).body.data;
    t.same(whole.suppliers[0].additionalContactPoints, [contact, contact], 'the owning platform sees them');
  },
);

t.test('restricted contract: the owning platform, r brokers and the contracting system see it whole', async (t) => {
  const c = await created(restrictedTender.id);
  for (const key of ['broker', 'brokerr', 'contracting']) {
    const { data } = (await server.request('GET', `/api/2.5/contracts/${c.id}`, { key })).body;
    t.equal(data.suppliers[0].name, 'Постачальник', key);
    t.equal(data.items[0].deliveryLocation.latitude, 50.45, key);
  }
});

t.test('contract feed: allowed opt_fields only, masked entries for anonymous', async (t) => {
  const c = await created(restrictedTender.id);
  const feed = await server.request('GET', '/api/2.5/contracts?opt_fields=status,contractID,suppliers');
  const entry = feed.body.data.find((e: { id: string }) => e.id === c.id);
  t.same(Object.keys(entry).sort(), ['contractID', 'dateModified', 'id', 'status']);
});

t.test('owner PATCH of value with amountNet, period and dateSigned → 200, dateModified moves', async (t) => {
  const c = await created(openTender.id);
  server.clock.advance(60_000);
  const res = await patch(c.id, c.token, {
    value: { amount: 240, amountNet: 200, valueAddedTaxIncluded: true },
    period: { startDate: '2026-10-05T00:00:00+03:00', endDate: '2027-10-05T00:00:00+03:00' },
    dateSigned: '2026-10-05T12:00:00+03:00',
  });
  server.clock.advance(-60_000);
  t.equal(res.status, 200);
  t.match(res.body.data, {
    value: { amount: 240, amountNet: 200 },
    dateSigned: '2026-10-05T12:00:00+03:00',
    dateModified: '2026-10-05T12:01:00+03:00',
  });
  t.same(res.body.config, { restricted: false });
});

t.test('amountNet that does not fit amount → 403 name value; nothing changes', async (t) => {
  const c = await created(openTender.id);
  t.match(
    await patch(c.id, c.token, { value: { amount: 500, amountNet: 300 } }),
    error(403, 'body', 'value', 'Amount should be equal or greater than amountNet and differ by no more than 20.0%'),
  );
  t.match(
    await patch(c.id, c.token, { value: { amount: 500, amountNet: 400, valueAddedTaxIncluded: false } }),
    error(403, 'body', 'value', 'Amount and amountNet should be equal'),
  );
  t.same((await server.request('GET', `/api/2.5/contracts/${c.id}`)).body.data, c.body.data);
});

t.test('a dateSigned in the future → 422 dateSigned', async (t) => {
  const c = await created(openTender.id);
  t.match(
    await patch(c.id, c.token, { dateSigned: '2026-10-06T00:00:00+03:00' }),
    error(422, 'body', 'dateSigned', ["Contract signature date can't be in the future"]),
  );
});

t.test(
  'the owner PATCH may not write changes or documents → 422 Rogue field; they have their own routes (docs/platform.md §Server-managed arrays)',
  async (t) => {
    const c = await created(openTender.id);
    t.match(
      await patch(c.id, c.token, { changes: [{ rationale: 'Зміна ціни', rationaleTypes: ['priceReduction'] }] }),
      error(422, 'body', 'changes', 'Rogue field'),
    );
    t.match(
      await patch(c.id, c.token, { documents: [{ title: 'x.pdf', url: 'javascript:alert(1)', format: 'application/pdf' }] }),
      error(422, 'body', 'documents', 'Rogue field'),
    );
    t.same((await server.request('GET', `/api/2.5/contracts/${c.id}`, { key: 'broker' })).body.data, c.body.data, 'nothing changed');
  },
);

t.test('status: pending → active → terminated; then nothing may change', async (t) => {
  const c = await created(openTender.id);
  t.equal((await patch(c.id, c.token, { status: 'active' })).body.data.status, 'active');
  t.match(await patch(c.id, c.token, { status: 'cancelled' }), error(403, 'body', 'data', "Can't update contract status"));
  t.equal((await patch(c.id, c.token, { status: 'terminated' })).body.data.status, 'terminated');
  t.match(await patch(c.id, c.token, { title: 'x' }), error(403, 'body', 'data', "Can't update contract in current (terminated) status"));
  // The reference validates the body before it judges the status (docs/contracts.md §Contract status machine).
  t.match(await patch(c.id, c.token, { rogue: 'x' }), error(422, 'body', 'rogue', 'Rogue field'));
});

t.test('a no-op PATCH leaves dateModified; a wrong token or another broker → 403 url/permission', async (t) => {
  const c = await created(openTender.id);
  server.clock.advance(60_000);
  t.equal((await patch(c.id, c.token, { title: 'Договір' })).body.data.dateModified, '2026-10-05T12:00:00+03:00');
  server.clock.advance(-60_000);
  t.match(await patch(c.id, 'f'.repeat(32), { title: 'x' }), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch(c.id, c.token, { title: 'x' }, 'broker1'), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await patch(c.id, c.token, { id: 'x' }), error(422, 'body', 'id', 'Rogue field'));
});

t.test('a contract of a test-mode tender carries the test title markers', async (t) => {
  const test = await createTender(server, aTender({ mode: 'test' }));
  const res = await create(aContract(test.id));
  t.match(res.body.data, { mode: 'test', title: '[ТЕСТУВАННЯ] Договір', title_en: '[TESTING] ', title_ru: '[ТЕСТИРОВАНИЕ] ' });
});
