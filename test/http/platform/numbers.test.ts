import t from 'tap';
import { aBudget, aPlan } from '../../fixtures/plans';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import {
  aBid,
  aCompetitiveOrderingTender,
  aContract,
  aLot,
  anItem,
  aTender,
  belowThresholdConfig,
  competitiveOrderingConfig,
  createLottedTender,
  createTender,
  insertAgreement,
  tenderInTendering,
} from '../../fixtures/tenders';

/**
 * Amounts, quantities and percentages are floats in every answer (docs/platform.md §Numbers): the text, not
 * only the parsed value, says `500.0`, however the answer is rendered.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const text = async (path: string, key?: string) => (await server.request('GET', path, { key })).text;
const FLOATS = [/"amount":500\.0\b/, /"quantity":5\.0\b/, /"percentage":45\.55\b/];
const INTEGERS = /"(?:amount|amountNet|quantity|percentage)":-?\d+[,}\]]/;

t.test('an unrestricted tender: the write answer, the object, the feed entry and the pretty view', async (t) => {
  const tender = await createLottedTender(server);
  const path = `/api/2.5/tenders/${tender.id}`;
  const patched = await server.request('PATCH', path, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  const bodies = {
    'PATCH answer': patched.text,
    'GET object': await text(path),
    'feed entry': await text('/api/2.5/tenders?opt_fields=value,lots'),
    opt_pretty: (await text(`${path}?opt_pretty=1`)).replace(/": /g, '":'),
  };
  for (const [where, body] of Object.entries(bodies)) {
    t.match(body, /"amount":500\.0\b/, `${where}: amounts are floats`);
    t.notMatch(body, INTEGERS, `${where}: no whole float written as an integer`);
  }
  for (const pattern of FLOATS) t.match(bodies['GET object'], pattern);
  t.match(bodies['GET object'], /"days":2\b/, 'integers stay integers');
});

t.test('a restricted tender, masked for an anonymous reader and whole for its owner', async (t) => {
  const agreementId = await insertAgreement(server, { restricted: true });
  const lot = 'd'.repeat(32);
  const tender = await createTender(
    server,
    aCompetitiveOrderingTender(agreementId, { lots: [aLot({ id: lot })], items: [anItem({ relatedLot: lot })] }),
    competitiveOrderingConfig({ restricted: true }),
  );
  for (const key of [undefined, 'broker']) {
    const body = await text(`/api/2.5/tenders/${tender.id}`, key);
    t.match(body, /"amount":500\.0\b/, `key ${key ?? 'none'}`);
    t.notMatch(body, INTEGERS, `key ${key ?? 'none'}`);
  }
});

t.test('contracts: amountNet is a float too', async (t) => {
  const tender = await createLottedTender(server);
  const created = await server.request('POST', '/api/2.5/contracts', { key: 'contracting', body: { data: aContract(tender.id) } });
  t.match(created.text, /"amountNet":450\.0\b/);
  t.match(await text(`/api/2.5/contracts/${created.body.data.id}`), /"amountNet":450\.0\b/);
});

/** Amounts sent as JSON strings are converted as the reference's `FloatType` converts them (docs/platform.md §Amounts sent as strings). */
t.test('a tender created with amounts as strings → 201, stored and answered as floats', async (t) => {
  const data = aTender({
    value: { amount: '500', currency: 'UAH' },
    minimalStep: { amount: ' 1.5e1 ', currency: 'UAH' },
    guarantee: { amount: '1_000', currency: 'UAH' },
    items: [anItem({ quantity: '\uff15' })],
  });
  const created = await server.request('POST', '/api/2.5/tenders', { key: 'broker', body: { data, config: belowThresholdConfig() } });
  t.equal(created.status, 201);
  const body = await text(`/api/2.5/tenders/${created.body.data.id}`);
  for (const pattern of [
    /"value":\{[^}]*"amount":500\.0\b/,
    /"minimalStep":\{[^}]*"amount":15\.0\b/,
    /"guarantee":\{"amount":1000\.0,/,
    /"quantity":5\.0\b/,
  ]) {
    t.match(body, pattern);
  }
});

/** Each amount is sent as JSON text: `1e309` cannot be written by JSON.stringify. */
t.test('a tender amount the reference refuses, or that is not finite → 422 with the conversion text', async (t) => {
  const cases: [string, string][] = [
    ['"abc"', "Value 'abc' is not float."],
    ['""', "Value '' is not float."],
    ['"0x10"', "Value '0x10' is not float."],
    ['"1,5"', "Value '1,5' is not float."],
    ['[1, "a"]', "Value '[1, 'a']' is not float."],
    ['{"a": null}', "Value '{'a': None}' is not float."],
    ['"-5"', 'Float value should be greater than 0.'],
    // The reference stores these and answers Infinity or NaN, which is not JSON (docs/platform.md §Amounts sent as strings).
    ['"inf"', "Value 'inf' is not float."],
    ['"-Infinity"', "Value '-Infinity' is not float."],
    ['"NaN"', "Value 'NaN' is not float."],
    ['"1e400"', "Value '1e400' is not float."],
    ['1e309', "Value 'inf' is not float."],
  ];
  const body = JSON.stringify({ data: aTender(), config: belowThresholdConfig() });
  for (const [amount, text] of cases) {
    const raw = body.replace('"value":{"amount":500', `"value":{"amount":${amount}`);
    const reply = await server.request('POST', '/api/2.5/tenders', { key: 'broker', raw });
    t.match(reply, errorReply(422, 'body', 'value', { amount: [text] }), amount);
  }
});

t.test('booleans are 1.0 and 0.0, as float(True) and float(False)', async (t) => {
  const data = aTender({ value: { amount: true, currency: 'UAH' }, minimalStep: { amount: false, currency: 'UAH' } });
  const created = await server.request('POST', '/api/2.5/tenders', { key: 'broker', body: { data, config: belowThresholdConfig() } });
  t.equal(created.status, 201);
  t.match(created.text, /"value":\{[^}]*"amount":1\.0\b/);
  t.match(created.text, /"minimalStep":\{[^}]*"amount":0\.0\b/);
});

t.test('a bid whose lot value is a string → 201 with the number; "abc" → 422', async (t) => {
  const tender = await tenderInTendering(server);
  const path = `/api/2.5/tenders/${tender.id}/bids`;
  const lot = tender.data.lots[0].id;
  const bid = (amount: unknown) => aBid(tender, 0, 1, { lotValues: [{ value: { amount }, relatedLot: lot }] });
  const placed = await server.request('POST', path, { key: 'broker1', body: { data: bid('450.5') } });
  t.equal(placed.status, 201);
  t.equal(placed.body.data.lotValues[0].value.amount, 450.5);
  const refused = await server.request('POST', path, { key: 'broker1', body: { data: bid('abc') } });
  t.match(refused, errorReply(422, 'body', 'lotValues', [{ value: { amount: ["Value 'abc' is not float."] } }]));
});

t.test('a plan budget sent as strings → 201 with floats; a list → 422', async (t) => {
  const data = aPlan({ budget: aBudget({ amount: '10000', amountNet: '12222.5' }) });
  const created = await server.request('POST', '/api/2.5/plans', { key: 'broker', body: { data } });
  t.equal(created.status, 201);
  t.match(created.text, /"amount":10000\.0,/);
  t.equal(created.body.data.budget.amountNet, 12222.5);
  const refused = await server.request('POST', '/api/2.5/plans', {
    key: 'broker',
    body: { data: aPlan({ budget: aBudget({ amount: [] }) }) },
  });
  t.match(refused, errorReply(422, 'body', 'budget', { amount: ["Value '[]' is not float."] }));
});
