import t from 'tap';
import { type ObjectDoc } from '../../../src/domain/core/objects';
import { updateOf } from '../../../src/domain/save-rules';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { aTender, belowThresholdConfig, createTender } from '../../fixtures/tenders';
import { apiJson } from '../../../src/store/api-json';

const HIDDEN = 'Приховано';
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const path = (id: string) => `/api/2.5/tenders/${id}`;
/** Makes a stored tender restricted, as the contracting flows outside this API would store one. */
async function restrict(id: string) {
  const session = server.store.session();
  const stored = (await session.get('tenders', id))!;
  const doc = stored.doc as ObjectDoc;
  await session.commit([updateOf(stored, { ...doc, config: { ...doc.config, restricted: true } })]);
}

t.test('an anonymous read after a change shows the change (the kept view is of the old version)', async (t) => {
  const tender = await createTender(server, aTender());
  const first = await server.request('GET', path(tender.id));
  const again = await server.request('GET', path(tender.id));
  t.equal(again.text, first.text, 'the same bytes while nothing changed');
  t.equal(again.headers.get('content-type'), 'application/json; charset=utf-8');
  const patched = await server.request('PATCH', path(tender.id), {
    key: 'broker',
    token: tender.token,
    body: { data: { title: 'нова назва' } },
  });
  t.equal(patched.status, 200);
  const after = await server.request('GET', path(tender.id));
  t.equal(after.body.data.title, 'нова назва');
  t.equal(after.body.data.dateModified, patched.body.data.dateModified);
});

t.test('a restricted tender: kept anonymous views stay masked, and no reader with a key gets them', async (t) => {
  const tender = await createTender(server, aTender());
  const unmasked = (await server.request('GET', path(tender.id))).body.data.items[0].deliveryAddress.streetAddress;
  t.not(unmasked, HIDDEN);
  await restrict(tender.id);
  for (let i = 0; i < 2; i++) {
    t.equal(
      (await server.request('GET', path(tender.id))).body.data.items[0].deliveryAddress.streetAddress,
      HIDDEN,
      `anonymous read ${i + 1}`,
    );
  }
  const whole = (key: string) => server.request('GET', path(tender.id), { key });
  for (let i = 1; i <= 2; i++) {
    t.equal((await whole('broker')).body.data.items[0].deliveryAddress.streetAddress, unmasked, `the owner, read ${i}`);
    t.equal((await whole('brokerr')).body.data.items[0].deliveryAddress.streetAddress, unmasked, `an r broker, read ${i}`);
    t.equal((await whole('broker1')).body.data.items[0].deliveryAddress.streetAddress, HIDDEN, `another broker, read ${i}`);
    t.equal(
      (await server.request('GET', path(tender.id))).body.data.items[0].deliveryAddress.streetAddress,
      HIDDEN,
      `anonymous after them, read ${i}`,
    );
  }
});

t.test('a restricted tender: the whole view kept for its owner follows its changes and reaches no one else', async (t) => {
  const tender = await createTender(server, aTender());
  await restrict(tender.id);
  const read = (key?: string) => server.request('GET', path(tender.id), { key });
  const street = (reply: { body: any }) => reply.body.data.items[0].deliveryAddress.streetAddress;
  const unmasked = street(await read('broker'));
  t.not(unmasked, HIDDEN);
  t.equal(street(await read('broker')), unmasked, 'kept for the owner');
  const patched = await server.request('PATCH', path(tender.id), {
    key: 'broker',
    token: tender.token,
    body: { data: { title: 'нова назва' } },
  });
  t.equal(patched.status, 200);
  const after = await read('broker');
  t.equal(after.body.data.title, 'нова назва', 'the owner reads the change');
  t.equal(street(after), unmasked);
  for (const key of ['broker1', 'broker2', undefined]) {
    const masked = await read(key);
    t.equal(street(masked), HIDDEN, `${key ?? 'anonymous'} gets the hidden view`);
    t.equal(masked.body.data.title, 'нова назва');
  }
  t.equal(street(await read('broker')), unmasked, 'the owner again');
});

t.test('an unrestricted view kept for a broker is current for every reader until the object turns restricted', async (t) => {
  const tender = await createTender(server, aTender());
  const street = (reply: { body: any }) => reply.body.data.items[0].deliveryAddress.streetAddress;
  const unmasked = street(await server.request('GET', path(tender.id), { key: 'broker1' }));
  t.equal(street(await server.request('GET', path(tender.id))), unmasked, 'anonymous reads the view kept for a broker');
  t.equal(street(await server.request('GET', path(tender.id), { key: 'broker2' })), unmasked);
  await restrict(tender.id);
  t.equal(street(await server.request('GET', path(tender.id), { key: 'broker1' })), HIDDEN, 'another broker, after the change');
  t.equal(street(await server.request('GET', path(tender.id), { key: 'broker' })), unmasked, 'the owner');
  t.equal(street(await server.request('GET', path(tender.id))), HIDDEN, 'anonymous');
  t.equal(street(await server.request('GET', path(tender.id), { key: 'broker2' })), HIDDEN, 'another broker after an anonymous read');
});

t.test('opt_pretty is rendered for its request, not taken from the kept compact view', async (t) => {
  const tender = await createTender(server, aTender());
  await server.request('GET', path(tender.id));
  const pretty = await server.request('GET', `${path(tender.id)}?opt_pretty=1`);
  t.match(pretty.text, /^\{\n {4}"data": \{/);
  t.equal((await server.request('GET', path(tender.id))).text, apiJson(pretty.body), 'compact again without it');
});

t.test('an unknown or malformed id is still a 404 after other reads', async (t) => {
  for (const id of ['f'.repeat(32), 'not-an-id']) {
    const reply = await server.request('GET', path(id));
    t.equal(reply.status, 404);
    t.same(reply.body, { status: 'error', errors: [{ location: 'url', name: 'tender_id', description: 'Not Found' }] });
  }
});

t.test('VIEW_CACHE_MB=0 keeps no views and reads the same', async (t) => {
  const bare = await startTestServer({ env: { VIEW_CACHE_MB: '0' } });
  t.teardown(() => bare.close());
  const tender = await createTender(bare, aTender(), belowThresholdConfig());
  const before = await bare.request('GET', path(tender.id));
  await bare.request('PATCH', path(tender.id), { key: 'broker', token: tender.token, body: { data: { title: 'без кешу' } } });
  t.equal(before.status, 200);
  t.equal((await bare.request('GET', path(tender.id))).body.data.title, 'без кешу');
});
