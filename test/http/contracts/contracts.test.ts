import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCompetitiveOrderingTender,
  aContract,
  anItem,
  aTender,
  belowThresholdConfig,
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

/** The items of update-contract-item.http: two items priced in UAH without VAT, the first with its winner's attributes. */
const ATTRIBUTES = [
  { name: 'Форма випуску', values: ['Розчин для інфузій'] },
  { name: 'Доза діючої речовини', unit: { name: 'кілограми', code: 'KGM' }, value: 5 },
];
const priced = (amount: number, currency = 'UAH') => ({
  name: 'кг',
  code: 'KGM',
  value: { amount, currency, valueAddedTaxIncluded: false },
});
const recordedItems = () => [
  { ...anItem({ description: 'Комп’ютерне обладнання для біда', quantity: 10, unit: priced(12) }), attributes: ATTRIBUTES },
  anItem({ description: 'Комп’ютерне обладнання', quantity: 5, unit: priced(20) }),
];
/** A contract of the recording: value 220 without VAT, its items 10 × 12 + 5 × 20. */
const recorded = (tenderId: string, overrides = {}) =>
  created(tenderId, {
    value: { amount: 220, amountNet: 220, currency: 'UAH', valueAddedTaxIncluded: false },
    items: recordedItems(),
    ...overrides,
  });
const read = async (id: string) => (await server.request('GET', `/api/2.5/contracts/${id}`, { key: 'broker' })).body.data;
type Item = Record<string, any>;
/** The stored items with `change` applied to the item at `at`. */
const changed = (items: Item[], at: number, change: (i: Item) => Item) => items.map((i, n) => (n === at ? change(structuredClone(i)) : i));

/** Python's repr of the attributes above, as the reference prints a changed member. */
const pyList = (attributes: Item[]) =>
  `[${attributes
    .map((a) =>
      a.values
        ? `{'name': '${a.name}', 'values': ['${a.values[0]}']}`
        : `{'name': '${a.name}', 'unit': {'name': 'кілограми', 'code': 'KGM'}, 'value': 5}`,
    )
    .join(', ')}]`;

t.test('update-contract-item.http: a signed contract takes new quantity, unit price and value → 200, attributes kept', async (t) => {
  const c = await recorded(openTender.id);
  t.equal((await patch(c.id, c.token, { status: 'active' })).status, 200);
  server.clock.advance(60_000);
  const items = changed(c.body.data.items, 0, (i) => ({ ...i, quantity: 20, unit: priced(9) }));
  const res = await patch(c.id, c.token, { value: { amount: 280, amountNet: 280 }, items });
  server.clock.advance(-60_000);
  t.equal(res.status, 200);
  t.same(res.body.data.items, items);
  t.same(res.body.data.items[0].attributes, ATTRIBUTES);
  t.match(res.body.data, {
    status: 'active',
    value: { amount: 280, amountNet: 280, currency: 'UAH', valueAddedTaxIncluded: false },
    dateModified: '2026-10-05T12:01:00+03:00',
  });
  t.same(await read(c.id), res.body.data, 'stored as answered');
});

t.test("any PATCH of a contract with a value prices its items without VAT and in the value's currency", async (t) => {
  const withVat = { name: 'кг', code: 'KGM', value: { amount: 12, currency: 'USD', valueAddedTaxIncluded: true } };
  const c = await recorded(openTender.id, {
    items: [anItem({ quantity: 10, unit: withVat }), anItem({ unit: { name: 'кг', code: 'KGM' } })],
  });
  const res = await patch(c.id, c.token, { title: 'Договір' });
  t.same(
    res.body.data.items.map((i: Item) => i.unit),
    [
      { name: 'кг', code: 'KGM', value: { amount: 12, currency: 'UAH', valueAddedTaxIncluded: false } },
      { name: 'кг', code: 'KGM' },
    ],
  );
  t.same(await read(c.id), res.body.data, 'stored as answered');
});

t.test('a pending contract changes unit and quantity of its items, in any amounts → 200', async (t) => {
  const c = await recorded(openTender.id);
  const items = changed(c.body.data.items, 1, (i) => ({
    ...i,
    quantity: '7',
    unit: { ...i.unit, value: { ...i.unit.value, amount: 1e9 } },
  }));
  const res = await patch(c.id, c.token, { items });
  t.equal(res.status, 200);
  t.match(res.body.data.items[1], { quantity: 7, unit: { value: { amount: 1e9 } } }, 'a quantity sent as a string is a number');
});

t.test("a pending contract's items keep everything but unit and quantity → 403, nothing stored", async (t) => {
  const c = await recorded(openTender.id);
  const items: Item[] = c.body.data.items;
  const [first, second] = items;
  const forbidden = (key: string, from: string, to: string) =>
    `Updated could be only ('unit', 'quantity') in item, ${key} change forbidden: ${from} -> ${to}`;
  const cases: [string, unknown, string | RegExp][] = [
    ['one item more', [...items, anItem({ unit: priced(1) })], "Can't change items list length"],
    ['one item less', [first], "Can't change items list length"],
    ['an unknown id', changed(items, 0, (i) => ({ ...i, id: 'f'.repeat(32) })), forbidden('id', first.id, 'f'.repeat(32))],
    ['the items swapped', [second, first], "Forbidden to delete fields in item: {'attributes'}"],
    ['a description', changed(items, 1, (i) => ({ ...i, description: 'Інше' })), forbidden('description', second.description, 'Інше')],
    [
      'a classification',
      changed(items, 0, (i) => ({ ...i, classification: { ...i.classification, id: '22992000-0' } })),
      forbidden(
        'classification',
        "{'scheme': 'ДК021', 'id': '44617100-9', 'description': 'Cartons'}",
        "{'scheme': 'ДК021', 'id': '22992000-0', 'description': 'Cartons'}",
      ),
    ],
    ['the attributes', changed(items, 0, ({ attributes: _a, ...i }) => i), "Forbidden to delete fields in item: {'attributes'}"],
    [
      'an attribute changed',
      changed(items, 0, (i) => ({ ...i, attributes: [ATTRIBUTES[0]] })),
      forbidden('attributes', pyList(ATTRIBUTES), pyList([ATTRIBUTES[0]])),
    ],
    [
      'a member of the delivery address',
      changed(items, 1, ({ deliveryAddress: { postalCode: _p, ...address }, ...i }) => ({ ...i, deliveryAddress: address })),
      /^Updated could be only \('unit', 'quantity'\) in item, deliveryAddress change forbidden: \{'countryName'/,
    ],
    [
      'a member of the unit',
      changed(items, 1, ({ unit: { name: _n, ...unit }, ...i }) => ({ ...i, unit })),
      "Forbidden to delete fields in unit: {'name'}",
    ],
    [
      "the unit's price",
      changed(items, 1, ({ unit: { value: _v, ...unit }, ...i }) => ({ ...i, unit })),
      "Forbidden to delete fields in unit: {'value'}",
    ],
  ];
  for (const [what, sent, description] of cases)
    t.match(await patch(c.id, c.token, { items: sent }), error(403, 'body', 'data', description), what);
  const added = await patch(c.id, c.token, { items: changed(items, 0, ({ id: _i, ...i }) => i) });
  t.match(
    added,
    error(403, 'body', 'data', new RegExp(`^${forbidden('id', first.id, '').replace(/[()]/g, '\\$&')}[0-9a-f]{32}$`)),
    'an item without id is a new one',
  );
  t.same(await read(c.id), c.body.data, 'nothing changed');
});

t.test('items that are no items → 422 with the field, before the status is judged', async (t) => {
  const c = await recorded(openTender.id);
  const items: Item[] = c.body.data.items;
  const quantity = (q: unknown) => changed(items, 0, (i) => ({ ...i, quantity: q }));
  t.match(await patch(c.id, c.token, { items: [] }), error(422, 'body', 'items', ['Please provide at least 1 item.']));
  t.match(await patch(c.id, c.token, { items: 'x' }), error(422, 'body', 'items', /./));
  t.match(await patch(c.id, c.token, { items: [items[0], items[0]] }), error(422, 'body', 'items', /./), 'the same id twice');
  for (const bad of [-1, 'NaN', 'abc', '1e400', { n: 1 }, null])
    t.match(
      await patch(c.id, c.token, { items: quantity(bad) }),
      error(422, 'body', 'items', [{ quantity: [/./] }]),
      `quantity ${JSON.stringify(bad)}`,
    );
  t.match(
    await patch(c.id, c.token, {
      items: changed(items, 0, (i) => ({ ...i, unit: { ...i.unit, value: { ...i.unit.value, amount: 'x' } } })),
    }),
    error(422, 'body', 'items', [{ unit: { value: { amount: [/./] } } }]),
  );
  t.match(
    await patch(c.id, c.token, { items: [{ ...items[0], rogue: 1 }, items[1]] }),
    error(422, 'body', 'items', [{ rogue: 'Rogue field' }]),
  );
  t.same(await read(c.id), c.body.data, 'nothing changed');
});

t.test("with the tender's valueCurrencyEquality, unit prices in another currency → 422 items, even of a final contract", async (t) => {
  const c = await recorded(openTender.id);
  const usd = changed(c.body.data.items, 0, (i) => ({ ...i, unit: priced(12, 'USD') }));
  t.match(await patch(c.id, c.token, { items: usd }), error(422, 'body', 'items', ['Value mismatch. Expected: currency UAH']));
  t.match(
    await patch(c.id, c.token, { items: c.body.data.items, value: { amount: 220, amountNet: 220, currency: 'USD' } }),
    error(422, 'body', 'items', ['Value mismatch. Expected: currency USD']),
    "against the PATCH's own value",
  );
  t.equal((await patch(c.id, c.token, { status: 'active' })).status, 200);
  t.equal((await patch(c.id, c.token, { status: 'terminated' })).status, 200);
  t.match(await patch(c.id, c.token, { items: usd }), error(422, 'body', 'items', ['Value mismatch. Expected: currency UAH']));
  t.match(
    await patch(c.id, c.token, { items: c.body.data.items }),
    error(403, 'body', 'data', "Can't update contract in current (terminated) status"),
  );
});

t.test('a tender of several currencies: a pending contract may not change the currency of a unit price → 403', async (t) => {
  const multi = await createTender(
    server,
    aTender(),
    belowThresholdConfig({ hasAuction: false, hasAwardingOrder: false, hasValueRestriction: false, valueCurrencyEquality: false }),
  );
  const c = await recorded(multi.id);
  const usd = changed(c.body.data.items, 0, (i) => ({ ...i, unit: priced(12, 'USD') }));
  t.match(await patch(c.id, c.token, { items: usd }), error(403, 'body', 'data', 'Forbidden to change currency in contract items unit'));
  t.equal((await patch(c.id, c.token, { status: 'active' })).status, 200);
  const res = await patch(c.id, c.token, { items: changed(c.body.data.items, 0, (i) => ({ ...i, unit: priced(1000) })) });
  t.equal(res.status, 200, 'nor are the unit prices summed');
});

t.test('an active contract: items of the same main information may come, others may not; prices add up to the value', async (t) => {
  const c = await recorded(openTender.id);
  t.equal((await patch(c.id, c.token, { status: 'active' })).status, 200);
  const signed = await read(c.id);
  const items: Item[] = c.body.data.items;
  const { id: _id, ...copy } = items[0];
  const newItem = { ...copy, description: 'Картон ручного виготовлення', quantity: 20, unit: priced(4.5) };
  const cartons = {
    ...newItem,
    classification: { id: '22992000-0', scheme: 'ДК021', description: 'Папір або картон ручного виготовлення' },
  };
  const MAIN =
    'all main fields should be the same as in previous items: classification, relatedLot, relatedBuyer, additionalClassifications';
  t.match(
    await patch(c.id, c.token, { items: [...items, cartons] }),
    error(403, 'body', 'data', `Forbidden to add new items main information in contract, ${MAIN}`),
    'add-item-invalid-classification.http',
  );
  t.match(
    await patch(c.id, c.token, { items: [...items, newItem] }),
    error(422, 'body', 'items', 'Total amount of unit values should be equal contract.value.amount if VAT is not included in contract'),
    'add-item-invalid-price.http',
  );
  t.match(
    await patch(c.id, c.token, { items: changed(items, 0, (i) => ({ ...i, quantity: 0 })) }),
    error(422, 'body', 'data', 'Item.unit.value.amount should be updated to 0 if item.quantity equal to 0'),
  );
  t.match(
    await patch(c.id, c.token, { items: changed(items, 0, (i) => ({ ...i, quantity: 1e15 })) }),
    error(422, 'body', 'items', /^Total amount of unit values should be equal/),
    'a huge quantity',
  );
  t.same(await read(c.id), signed, 'nothing changed');
  const res = await patch(c.id, c.token, { items: [{ ...items[0], quantity: 2.5 }, items[1], newItem] });
  t.equal(res.status, 200, 'add-contract-item.http: 2.5 × 12 + 5 × 20 + 20 × 4.5 = 220');
  t.match(res.body.data.items, [
    { id: items[0].id },
    { id: items[1].id },
    { id: /^[0-9a-f]{32}$/, description: 'Картон ручного виготовлення' },
  ]);
  const free = await patch(c.id, c.token, { items: [items[0], items[1], { ...newItem, quantity: 0, unit: priced(0) }] });
  t.equal(free.status, 200, 'an item of quantity 0 priced 0 adds nothing: 10 × 12 + 5 × 20 = 220');
});

t.test('an active contract may not drop the only item of a kind → 403; with VAT the prices lie between amountNet and amount', async (t) => {
  const cartons = anItem({ classification: { id: '22992000-0', scheme: 'ДК021', description: 'Картон' }, quantity: 1, unit: priced(100) });
  const c = await recorded(openTender.id, {
    value: { amount: 240, amountNet: 200, currency: 'UAH', valueAddedTaxIncluded: true },
    items: [anItem({ quantity: 10, unit: priced(12) }), cartons],
  });
  t.equal((await patch(c.id, c.token, { status: 'active' })).status, 200, '10 × 12 + 100 = 220, between 200 and 240');
  const signed = await read(c.id);
  const items: Item[] = c.body.data.items;
  t.match(
    await patch(c.id, c.token, { items: [{ ...items[0], quantity: 20 }] }),
    error(403, 'body', 'data', /^Forbidden to delete items main information in contract, all main fields/),
  );
  const VAT = 'Total amount of unit values must be no more than contract.value.amount and no less than net contract amount';
  for (const quantity of [6, 15]) {
    t.match(
      await patch(c.id, c.token, { items: changed(items, 0, (i) => ({ ...i, quantity })) }),
      error(422, 'body', 'items', VAT),
      `${quantity} × 12 + 100`,
    );
  }
  t.match(
    await patch(c.id, c.token, { value: { amount: 130, amountNet: 110 } }),
    error(422, 'body', 'items', VAT),
    'a value below the prices',
  );
  t.same(await read(c.id), signed, 'nothing changed');
  t.equal(
    (await patch(c.id, c.token, { items: changed(items, 0, (i) => ({ ...i, quantity: 11.674 })) })).status,
    200,
    '11.674 × 12 + 100 = 240.088: coins left out',
  );
});

t.test("the item rules' place among the contract PATCH checks: after the status, before the value", async (t) => {
  const c = await recorded(openTender.id);
  const fewer = [c.body.data.items[0]];
  t.match(await patch(c.id, c.token, { status: 'terminated', items: fewer }), error(403, 'body', 'data', "Can't update contract status"));
  t.match(
    await patch(c.id, c.token, { items: fewer, value: { amount: 500, amountNet: 300 } }),
    error(403, 'body', 'data', "Can't change items list length"),
  );
  t.match(
    await patch(c.id, c.token, { status: 'active', items: fewer }),
    error(422, 'body', 'items', /^Total amount of unit values should be equal/),
    'a contract signed with an item less is checked as active: 10 × 12 ≠ 220',
  );
  t.match(
    await patch(c.id, c.token, { status: 'active', value: { amount: 300, amountNet: 300 } }),
    error(422, 'body', 'items', /^Total amount of unit values should be equal/),
    'signing checks the prices against the value',
  );
  t.same(await read(c.id), c.body.data, 'nothing changed');
});

t.test("a restricted contract's items: only its owner changes them, with its token", async (t) => {
  const c = await recorded(restrictedTender.id);
  const items = changed(c.body.data.items, 0, (i) => ({ ...i, quantity: 11 }));
  for (const [key, token] of [
    ['broker1', c.token],
    ['brokerr', c.token],
    ['broker', 'f'.repeat(32)],
    [undefined, c.token],
  ] as const) {
    const res = await server.request('PATCH', `/api/2.5/contracts/${c.id}`, { key, token, body: { data: { items } } });
    t.match(res, error(403, 'url', 'permission', 'Forbidden'), String(key));
  }
  t.same(await read(c.id), c.body.data, 'nothing changed');
  t.equal((await patch(c.id, c.token, { items })).body.data.items[0].quantity, 11);
});
