import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { err, errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aLot, anItem, aTender, belowThresholdConfig, createTender } from '../../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const post = (data: unknown, config: unknown = belowThresholdConfig(), key = 'broker') =>
  server.request('POST', '/api/2.5/tenders', { key, body: { data, config } });

t.test('a valid belowThreshold request → 201 draft with Location, access and the server-set members', async (t) => {
  const res = await post(aTender());
  t.equal(res.status, 201);
  const d = res.body.data;
  t.equal(res.headers.get('location'), `${server.url}/api/2.5/tenders/${d.id}`);
  t.match(d.id, /^[0-9a-f]{32}$/);
  t.match(d.tenderID, /^UA-2026-10-05-\d{6}-a$/);
  t.match(d, {
    status: 'draft',
    procurementMethod: 'open',
    submissionMethod: 'electronicAuction',
    awardCriteria: 'lowestCost',
    owner: 'broker',
    date: '2026-10-05T12:00:00+03:00',
    dateCreated: '2026-10-05T12:00:00+03:00',
    dateModified: '2026-10-05T12:00:00+03:00',
    value: { amount: 500, currency: 'UAH', valueAddedTaxIncluded: true },
    minimalStep: { amount: 15, currency: 'UAH', valueAddedTaxIncluded: true },
  });
  t.match(d.items[0].id, /^[0-9a-f]{32}$/);
  t.match(d.milestones[0].id, /^[0-9a-f]{32}$/);
  t.notOk('next_check' in d, 'a draft has no next_check');
  t.same(res.body.config, belowThresholdConfig());
  t.match(res.body.access, { token: /^[0-9a-f]{32}$/, transfer: /^[0-9a-f]{32}$/ });
  t.notOk('secrets' in d);
});

t.test('enquiry and tender periods are completed: start now, clarificationsUntil one working day after', async (t) => {
  const res = await post(aTender());
  t.same(res.body.data.enquiryPeriod, {
    endDate: '2026-10-12T00:00:00+03:00',
    startDate: '2026-10-05T12:00:00+03:00',
    clarificationsUntil: '2026-10-13T00:00:00+03:00',
  });
  t.same(res.body.data.tenderPeriod, { endDate: '2026-10-19T00:00:00+03:00', startDate: '2026-10-12T00:00:00+03:00' });
});

t.test('lots get ids, status active and date; lot values take the tender currency and VAT flag', async (t) => {
  const res = await post(
    aTender({ value: { amount: 500, currency: 'USD', valueAddedTaxIncluded: false }, minimalStep: { amount: 15 }, lots: [aLot()] }),
  );
  t.equal(res.status, 201);
  t.match(res.body.data.lots[0], {
    id: /^[0-9a-f]{32}$/,
    status: 'active',
    date: '2026-10-05T12:00:00+03:00',
    value: { amount: 500, currency: 'USD', valueAddedTaxIncluded: false },
    minimalStep: { amount: 15, currency: 'USD', valueAddedTaxIncluded: false },
  });
});

t.test('a client-given lot id is kept', async (t) => {
  const id = 'a'.repeat(32);
  const res = await post(aTender({ lots: [aLot({ id })], items: [anItem({ relatedLot: id })] }));
  t.equal(res.body.data.lots[0].id, id);
});

t.test('the config is echoed as sent; a missing config gets the procedure defaults', async (t) => {
  const sent = belowThresholdConfig({ hasAuction: false, minBidsNumber: 2 });
  const { minimalStep: _m, ...noStep } = aTender();
  const res = await post(noStep, sent);
  t.same(res.body.config, sent);
  const plain = await server.request('POST', '/api/2.5/tenders', { key: 'broker', body: { data: aTender() } });
  t.same(plain.body.config, belowThresholdConfig());
});

t.test('without procurementMethodType the tender is belowThreshold', async (t) => {
  const { procurementMethodType: _p, ...data } = aTender();
  const res = await post(data);
  t.equal(res.body.data.procurementMethodType, 'belowThreshold');
});

t.test('test mode: titles get their markers, missing title_en and title_ru are created', async (t) => {
  const res = await post(aTender({ mode: 'test', title_en: 'Cases' }));
  t.match(res.body.data, {
    mode: 'test',
    title: '[ТЕСТУВАННЯ] футляри до державних нагород',
    title_en: '[TESTING] Cases',
    title_ru: '[ТЕСТИРОВАНИЕ] ',
  });
});

t.test('test mode: titles already marked are not marked twice (also on PATCH)', async (t) => {
  const created = await createTender(server, aTender({ mode: 'test', title: '[ТЕСТУВАННЯ] x' }));
  t.equal(created.data.title, '[ТЕСТУВАННЯ] x');
  const res = await server.request('PATCH', `/api/2.5/tenders/${created.id}`, {
    key: 'broker',
    token: created.token,
    body: { data: { title_en: 'New' } },
  });
  t.match(res.body.data, { title: '[ТЕСТУВАННЯ] x', title_en: '[TESTING] New', title_ru: '[ТЕСТИРОВАНИЕ] ' });
});

t.test('body {} → 422 body/data "Data not available"', async (t) => {
  const res = await server.request('POST', '/api/2.5/tenders', { key: 'broker', body: {} });
  t.match(res, error(422, 'body', 'data', 'Data not available'));
});

t.test('malformed JSON → 422 body/data with simplejson text', async (t) => {
  const res = await server.request('POST', '/api/2.5/tenders', { key: 'broker', raw: '{"data": ' });
  t.match(res, error(422, 'body', 'data', 'Expecting value: line 1 column 10 (char 9)'));
});

t.test('no API key → 403 url/permission "Forbidden"', async (t) => {
  const res = await server.request('POST', '/api/2.5/tenders', { body: { data: aTender() } });
  t.match(res, error(403, 'url', 'permission', 'Forbidden'));
});

t.test('a key of another group (chronograph) → 403 url/permission', async (t) => {
  const res = await post(aTender(), belowThresholdConfig(), 'chronograph');
  t.match(res, error(403, 'url', 'permission', 'Forbidden'));
});

t.test('an unknown procurementMethodType → 404 url/not_found', async (t) => {
  const res = await post(aTender({ procurementMethodType: 'aboveThresholdEU' }));
  t.match(res, error(404, 'url', 'not_found', 'Not Found'));
});

t.test('a procurementMethodType that is an object with a toString member → 404 url/not_found, not a 500', async (t) => {
  const res = await post(aTender({ procurementMethodType: { toString: 1 } }));
  t.match(res, error(404, 'url', 'not_found', 'Not Found'));
});

t.test('an unknown field → 422 body/<field> "Rogue field"', async (t) => {
  const res = await post(aTender({ foo: 1 }));
  t.match(res, error(422, 'body', 'foo', 'Rogue field'));
});

t.test('server-set fields sent by the client are rogue', async (t) => {
  for (const field of ['id', 'tenderID', 'owner', 'dateModified', 'next_check']) {
    const res = await post(aTender({ [field]: 'x' }));
    t.match(res, error(422, 'body', field, 'Rogue field'), field);
  }
});

t.test('an unknown nested field → {"field": "Rogue field"}', async (t) => {
  const res = await post(aTender({ value: { amount: 500, foo: 1 } }));
  t.match(res, error(422, 'body', 'value', { foo: 'Rogue field' }));
});

t.test('missing required fields → one entry each with ["This field is required."]', async (t) => {
  const res = await post({ procurementMethodType: 'belowThreshold' });
  t.equal(res.status, 422);
  const names = res.body.errors.map((e: { name: string }) => e.name).sort();
  t.same(names, ['enquiryPeriod', 'items', 'procuringEntity', 'tenderPeriod', 'title', 'value']);
  for (const e of res.body.errors) t.same(e.description, ['This field is required.'], e.name);
});

t.test('status other than draft on creation → ["Value must be one of [\'draft\']."]', async (t) => {
  const res = await post(aTender({ status: 'active.enquiries' }));
  t.match(res, error(422, 'body', 'status', ["Value must be one of ['draft']."]));
});

t.test('value as a string → 422 "Please use a mapping for this field or Value instance instead of str."', async (t) => {
  const res = await post(aTender({ value: 'invalid_value' }));
  t.match(res, error(422, 'body', 'value', ['Please use a mapping for this field or Value instance instead of str.']));
});

t.test('a currency outside the codelist → {"currency": ["Currency must be only UAH, USD, EUR, GBP, RUB."]}', async (t) => {
  const res = await post(aTender({ value: { amount: 500, currency: 'XXX' } }));
  t.match(res, error(422, 'body', 'value', { currency: ['Currency must be only UAH, USD, EUR, GBP, RUB.'] }));
});

t.test('an unparsable date → {"endDate": ["Could not parse invalid_value. Should be ISO8601."]}', async (t) => {
  const res = await post(aTender({ enquiryPeriod: { endDate: 'invalid_value' } }));
  t.match(res, error(422, 'body', 'enquiryPeriod', { endDate: ['Could not parse invalid_value. Should be ISO8601.'] }));
});

t.test('an item without classification → [{"classification": ["This field is required."]}]', async (t) => {
  const { classification: _c, ...item } = anItem();
  const res = await post(aTender({ items: [item] }));
  t.match(res, error(422, 'body', 'items', [{ classification: ['This field is required.'] }]));
});

t.test("an item classification scheme other than ДК021 → Value must be one of ['ДК021']", async (t) => {
  const res = await post(aTender({ items: [anItem({ classification: { scheme: 'CPV', id: '44617100-9', description: 'x' } })] }));
  t.match(res, error(422, 'body', 'items', [{ classification: { scheme: ["Value must be one of ['ДК021']."] } }]));
});

t.test('an item classification id that is no ДК021 code → "Value must be one of ДК021 codes"', async (t) => {
  const res = await post(aTender({ items: [anItem({ classification: { scheme: 'ДК021', id: 'abc', description: 'x' } })] }));
  t.match(res, error(422, 'body', 'items', [{ classification: { id: ['Value must be one of ДК021 codes'] } }]));
});

t.test('items of different CPV classes → ["CPV class of items (1921, 4461) should be identical"]', async (t) => {
  const other = anItem({ classification: { scheme: 'ДК021', id: '19212310-1', description: 'x' } });
  const res = await post(aTender({ items: [anItem(), other] }));
  t.match(res, error(422, 'body', 'items', ['CPV class of items (1921, 4461) should be identical']));
});

t.test('an item without unit → [{"unit": ["This field is required."]}]', async (t) => {
  const { unit: _u, ...item } = anItem();
  const res = await post(aTender({ items: [item] }));
  t.match(res, error(422, 'body', 'items', [{ unit: ['This field is required.'] }]));
});

t.test('a negative quantity → [{"quantity": ["Float value should be greater than 0."]}]', async (t) => {
  const res = await post(aTender({ items: [anItem({ quantity: -1 })] }));
  t.match(res, error(422, 'body', 'items', [{ quantity: ['Float value should be greater than 0.'] }]));
});

t.test('relatedLot naming no lot → [{"relatedLot": ["relatedLot should be one of lots"]}]', async (t) => {
  const res = await post(aTender({ items: [anItem({ relatedLot: 'b'.repeat(32) })] }));
  t.match(res, error(422, 'body', 'items', [{ relatedLot: ['relatedLot should be one of lots'] }]));
});

t.test('duplicate lot ids → ["Items should be unique by fields: id"]', async (t) => {
  const id = 'c'.repeat(32);
  const res = await post(aTender({ lots: [aLot({ id }), aLot({ id })] }));
  t.match(res, error(422, 'body', 'lots', ['Items should be unique by fields: id']));
});

t.test('contactPoint without telephone and email → {"contactPoint": ["telephone or email should be present"]}', async (t) => {
  const pe = { ...aTender().procuringEntity, contactPoint: { name: 'x' } };
  const res = await post(aTender({ procuringEntity: pe }));
  t.match(res, error(422, 'body', 'procuringEntity', { contactPoint: ['telephone or email should be present'] }));
});

t.test('a procuringEntity kind outside the list → Value must be one of [...]', async (t) => {
  const pe = { ...aTender().procuringEntity, kind: 'bad' };
  const res = await post(aTender({ procuringEntity: pe }));
  t.match(
    res,
    error(422, 'body', 'procuringEntity', {
      kind: ["Value must be one of ['authority', 'central', 'defense', 'general', 'other', 'social', 'special']."],
    }),
  );
});

t.test('procurementMethod other than the procedure\'s → 422 "procurementMethod should be open"', async (t) => {
  const res = await post(aTender({ procurementMethod: 'selective' }));
  t.match(res, error(422, 'body', 'procurementMethod', 'procurementMethod should be open'));
});

t.test('with an auction, no minimalStep → 422 minimalStep ["This field is required."]', async (t) => {
  const { minimalStep: _m, ...data } = aTender();
  const res = await post(data);
  t.match(res, error(422, 'body', 'minimalStep', ['This field is required.']));
});

t.test('minimalStep in another currency → "Tender minimal step currency should be identical to tender currency"', async (t) => {
  const res = await post(aTender({ minimalStep: { amount: 15, currency: 'USD' } }));
  t.match(res, error(422, 'body', 'minimalStep.currency', ['Tender minimal step currency should be identical to tender currency']));
});

t.test('minimalStep above the value → "Tender minimal step amount should be less than tender amount"', async (t) => {
  const res = await post(aTender({ minimalStep: { amount: 600 } }));
  t.match(res, error(422, 'body', 'minimalStep.amount', ['Tender minimal step amount should be less than tender amount']));
});

t.test('minimalStep outside 0.5%–3% of the value → 422 body/data', async (t) => {
  const res = await post(aTender({ minimalStep: { amount: 16 } }));
  t.match(res, error(422, 'body', 'data', 'Minimal step value must be between 0.5% and 3% of value (with 2 digits precision).'));
});

t.test(
  'a lot minimal step above the lot value → 422 lots "Minimal step value should be less than lot value", a plain string',
  async (t) => {
    const res = await post(aTender({ lots: [aLot({ value: { amount: 10 }, minimalStep: { amount: 15 } })] }));
    t.same(res.body, err('body', 'lots', 'Minimal step value should be less than lot value'));
  },
);

t.test('submissionMethod without an auction → ["Rogue field."]', async (t) => {
  const res = await post(aTender({ submissionMethod: 'electronicAuction' }), belowThresholdConfig({ hasAuction: false }));
  t.match(res, error(422, 'body', 'submissionMethod', ['Rogue field.']));
});

t.test('financing milestones not adding up to 100 → "Sum of the financing milestone percentages 99.99 is not equal 100."', async (t) => {
  const res = await post(aTender({ milestones: [{ ...aTender().milestones[0], percentage: 99.99 }] }));
  t.match(res, error(422, 'body', 'milestones', ['Sum of the financing milestone percentages 99.99 is not equal 100.']));
});

t.test('enquiryPeriod shorter than 3 working days → 422 enquiryPeriod', async (t) => {
  const res = await post(aTender({ enquiryPeriod: { endDate: '2026-10-08T00:00:00+03:00' } }));
  t.match(res, error(422, 'body', 'enquiryPeriod', ['the enquiryPeriod cannot end earlier than 3 business days after the start']));
});

t.test('tenderPeriod shorter than 2 working days → 422 tenderPeriod', async (t) => {
  const res = await post(aTender({ tenderPeriod: { endDate: '2026-10-13T00:00:00+03:00' } }));
  t.match(res, error(422, 'body', 'tenderPeriod', ['tenderPeriod must be at least 2 full business days long']));
});

t.test('tenderPeriod starting before the enquiry end → ["period should begin after enquiryPeriod"]', async (t) => {
  const res = await post(aTender({ tenderPeriod: { startDate: '2026-10-10T00:00:00+03:00', endDate: '2026-10-19T00:00:00+03:00' } }));
  t.match(res, error(422, 'body', 'tenderPeriod', ['period should begin after enquiryPeriod']));
});

t.test('a period ending before it starts → {"startDate": ["period should begin before its end"]}', async (t) => {
  const res = await post(aTender({ tenderPeriod: { startDate: '2026-10-20T00:00:00+03:00', endDate: '2026-10-19T00:00:00+03:00' } }));
  t.match(res, error(422, 'body', 'tenderPeriod', { startDate: ['period should begin before its end'] }));
});

t.test('config: a value below the minimum → 422 body/minBidsNumber "0 is less than the minimum of 1"', async (t) => {
  const res = await post(aTender(), belowThresholdConfig({ minBidsNumber: 0 }));
  t.match(res, error(422, 'body', 'minBidsNumber', '0 is less than the minimum of 1'));
  const high = await post(aTender(), belowThresholdConfig({ minBidsNumber: 10 }));
  t.match(high, error(422, 'body', 'minBidsNumber', '10 is greater than the maximum of 9'));
});

t.test('config: a value the procedure does not allow → "True is not one of [False]"', async (t) => {
  const res = await post(aTender(), belowThresholdConfig({ restricted: true }));
  t.match(res, error(422, 'body', 'restricted', 'True is not one of [False]'));
});

t.test("config: a wrong type → \"'x' is not of type 'boolean'\"", async (t) => {
  const res = await post(aTender(), belowThresholdConfig({ hasAuction: 'x' }));
  t.match(res, error(422, 'body', 'hasAuction', "'x' is not of type 'boolean'"));
});

t.test('config: an unknown key → 422 body/config "Additional properties are not allowed (\'foo\' was unexpected)"', async (t) => {
  const res = await post(aTender(), belowThresholdConfig({ foo: 1 }));
  t.match(res, error(422, 'body', 'config', "Additional properties are not allowed ('foo' was unexpected)"));
  const known = await post(aTender(), belowThresholdConfig({ hasValueEstimation: true, minTenderingDuration: 2 }));
  t.equal(known.status, 201, "the reference's other keys are accepted");
  t.notOk('hasValueEstimation' in known.body.config, 'and not kept');
});

t.test('date-dependent rules: mainProcurementCategory and milestones are required', async (t) => {
  const { mainProcurementCategory: _m, ...noMpc } = aTender();
  t.match(await post(noMpc), error(422, 'body', 'mainProcurementCategory', ['This field is required.']));
  const { milestones: _s, ...noMilestones } = aTender();
  t.match(await post(noMilestones), error(422, 'body', 'milestones', ['This field is required.']));
});

t.test('INN: 33600000-6 without exactly one INN classification → 422 items', async (t) => {
  const item = anItem({ classification: { scheme: 'ДК021', id: '33600000-6', description: 'Фармацевтична продукція' } });
  const res = await post(aTender({ items: [item] }));
  t.match(
    res,
    error(422, 'body', 'items', [
      'Item with classification.id=33600000-6 have to contain exactly one additionalClassifications with scheme=INN',
    ]),
  );
});

t.test('INN: a 336… item with two INN classifications → 422 items', async (t) => {
  const inn = { scheme: 'INN', id: 'paracetamol', description: 'x' };
  const item = anItem({ classification: { scheme: 'ДК021', id: '33651100-9', description: 'x' }, additionalClassifications: [inn, inn] });
  const res = await post(aTender({ items: [item] }));
  t.match(
    res,
    error(422, 'body', 'items', [
      'Item with classification.id that starts with 336 and contains additionalClassification objects have to contain no more than one additionalClassifications with scheme=INN',
    ]),
  );
});

t.test('INN: 33600000-6 with exactly one INN classification → 201', async (t) => {
  const item = anItem({
    classification: { scheme: 'ДК021', id: '33600000-6', description: 'x' },
    additionalClassifications: [{ scheme: 'INN', id: 'paracetamol', description: 'x' }],
  });
  t.equal((await post(aTender({ items: [item] }))).status, 201);
});

t.test('refused creations store nothing: the next tender of the day on a fresh server is number 1', async (t) => {
  const fresh = await startTestServer();
  t.teardown(() => fresh.close());
  await fresh.request('POST', '/api/2.5/tenders', { key: 'broker', body: { data: aTender({ foo: 1 }) } });
  await fresh.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: { data: aTender(), config: belowThresholdConfig({ minBidsNumber: 0 }) },
  });
  const ok = await createTender(fresh, aTender());
  t.equal(ok.data.tenderID, 'UA-2026-10-05-000001-a');
});

t.test('accreditation: a broker without level 1 or 5 → 403 url/accreditation', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'auth-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'auth.ini');
  writeFileSync(file, '[brokers]\nbroker3 = broker3,3\nbroker1 = broker1,1\n');
  const limited = await startTestServer({ env: { AUTH_FILE: file } });
  t.teardown(() => limited.close());
  const res = await limited.request('POST', '/api/2.5/tenders', {
    key: 'broker3',
    body: { data: aTender(), config: belowThresholdConfig() },
  });
  t.match(res, error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit tender creation'));
  const central = { ...aTender().procuringEntity, kind: 'central' };
  const res2 = await limited.request('POST', '/api/2.5/tenders', {
    key: 'broker1',
    body: { data: aTender({ procuringEntity: central }), config: belowThresholdConfig() },
  });
  t.match(res2, error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit tender creation'));
});
