import t, { type Test } from 'tap';
import { activeFramework, aFramework, aQuestion } from '../fixtures/frameworks';
import { aContract, aTender, belowThresholdConfig, createTender } from '../fixtures/tenders';
import { startTestServer, type Reply, type TestServer } from '../fixtures/server';

/** Work per request is bounded by the body (docs/platform.md §Limits); no timing is asserted here. */

const API = '/api/2.5';

/** Every leaf message of a reply's error descriptions. */
function messages(reply: Reply): string[] {
  const out: string[] = [];
  const visit = (d: unknown) => {
    if (typeof d === 'string') out.push(d);
    else if (d && typeof d === 'object') Object.values(d).forEach(visit);
  };
  for (const e of reply.body?.errors ?? []) visit(e.description);
  return out;
}

/** A 4xx in the error format, with at most 100 errors and the count of the rest, and the node still answering. */
async function refusedInBounds(t: Test, server: TestServer, reply: Reply) {
  t.ok(reply.status >= 400 && reply.status < 500, `4xx, got ${reply.status}`);
  t.equal(reply.body?.status, 'error');
  t.ok(messages(reply).length <= 101, `at most 100 errors and one count, got ${messages(reply).length}`);
  t.equal((await server.request('GET', '/healthz')).status, 200, 'the node answers /healthz');
}

const many = (n: number, make: () => unknown) => Array.from({ length: n }, make);

t.test('10,000 scalars in items → 422 "Please provide no more than 1000 items." alone for items', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const reply = await server.request('POST', `${API}/tenders`, {
    key: 'broker',
    body: { data: { ...aTender(), items: many(10_000, () => 1) }, config: belowThresholdConfig() },
  });
  await refusedInBounds(t, server, reply);
  t.same(reply.body.errors, [{ location: 'body', name: 'items', description: ['Please provide no more than 1000 items.'] }]);
});

t.test('1000 scalars in items (within the bound) → the first 100 errors, then one entry counting the other 900', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const reply = await server.request('POST', `${API}/tenders`, {
    key: 'broker',
    body: { data: { ...aTender(), items: many(1000, () => 1) }, config: belowThresholdConfig() },
  });
  await refusedInBounds(t, server, reply);
  t.equal(reply.body.errors[0].name, 'items');
  t.equal(reply.body.errors[0].description.length, 100);
  t.same(reply.body.errors[1], { location: 'body', name: 'errors', description: '900 more errors not reported.' });
});

t.test('a question with 5000 additionalContactPoints → 422 "Please provide no more than 100 items." at the list', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const question = aQuestion();
  question.author = { ...question.author, additionalContactPoints: many(5000, () => 1) } as typeof question.author;
  const reply = await server.request('POST', `${API}/frameworks/${framework.id}/questions`, { key: 'broker1', body: { data: question } });
  await refusedInBounds(t, server, reply);
  t.same(reply.body.errors, [
    { location: 'body', name: 'author', description: { additionalContactPoints: ['Please provide no more than 100 items.'] } },
  ]);
});

t.test('10,000 {} in items, tenderers, additionalClassifications or suppliers → 422, not a 500 from a stack overflow', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const tender = await createTender(server, aTender());
  const empties = () => many(10_000, () => ({}));
  const cases: [string, string, Record<string, unknown>][] = [
    ['tenders', 'broker', { data: { ...aTender(), items: empties() }, config: belowThresholdConfig() }],
    ['frameworks', 'broker', { data: { ...aFramework(server.clock.now()), additionalClassifications: empties() } }],
    ['submissions', 'broker2', { data: { tenderers: empties(), frameworkID: framework.id } }],
    ['contracts', 'contracting', { data: { ...aContract(tender.id), suppliers: empties() } }],
  ];
  for (const [kind, key, body] of cases) {
    const reply = await server.request('POST', `${API}/${kind}`, { key, body });
    t.equal(reply.status, 422, `POST /${kind}`);
    await refusedInBounds(t, server, reply);
  }
});

t.test('1000 unknown members → 422: the first unknown ones as "Rogue field", alone as in the reference, then their count', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const data = Object.fromEntries(many(1000, () => 0).map((_, i) => [`k${i}`, 1]));
  const reply = await server.request('POST', `${API}/submissions`, { key: 'broker2', body: { data } });
  await refusedInBounds(t, server, reply);
  // Unknown members are errors of building the model: the missing required fields are not listed beside them.
  t.same(reply.body.errors.slice(0, 2), [
    { location: 'body', name: 'k0', description: 'Rogue field' },
    { location: 'body', name: 'k1', description: 'Rogue field' },
  ]);
  t.same(reply.body.errors.at(-1), { location: 'body', name: 'errors', description: '900 more errors not reported.' });
});

t.test("amount 1e309 (Infinity once parsed) → the reference's float text, not joi's", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = JSON.stringify({ data: { ...aTender(), value: { amount: '@', currency: 'UAH' } }, config: belowThresholdConfig() });
  const reply = await server.request('POST', `${API}/tenders`, { key: 'broker', raw: body.replace('"@"', '1e309') });
  t.equal(reply.status, 422);
  t.same(reply.body.errors, [{ location: 'body', name: 'value', description: { amount: ["Value 'inf' is not float."] } }]);
});

t.test("texts joi would have written itself: an amount past 2^53, a bad email, a bad hash → the reference's wording", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const tender = aTender();
  const reply = await server.request('POST', `${API}/tenders`, {
    key: 'broker',
    body: {
      data: {
        ...tender,
        value: { amount: 1e20, currency: 'UAH' },
        procuringEntity: { ...tender.procuringEntity, contactPoint: { ...tender.procuringEntity.contactPoint, email: 'not an email' } },
      },
      config: belowThresholdConfig(),
    },
  });
  t.equal(reply.status, 422);
  const byName = Object.fromEntries(reply.body.errors.map((e: { name: string; description: unknown }) => [e.name, e.description]));
  t.same(byName.value, { amount: [`Float value should be less than ${Number.MAX_SAFE_INTEGER}.`] });
  t.same(byName.procuringEntity, { contactPoint: { email: ['Not a well-formed email address.'] } });
  t.notOk(
    messages(reply).some((m) => m.includes('"')),
    'no joi text (joi quotes the field name)',
  );

  const created = await createTender(server, aTender());
  const document = (hash: string) => ({ title: 'doc.pdf', url: 'https://ds/1', hash, format: 'application/pdf' });
  const contract = await server.request('POST', `${API}/contracts`, {
    key: 'contracting',
    body: { data: aContract(created.id, { documents: [document('sha1:00'), document('md5:00'), document(`md5:${'z'.repeat(32)}`)] }) },
  });
  t.equal(contract.status, 422);
  t.same(contract.body.errors, [
    {
      location: 'body',
      name: 'documents',
      description: [
        { hash: ['Hash type is not supported.'] },
        { hash: ['Hash value is wrong length.'] },
        { hash: ['Hash value is not hexadecimal.'] },
      ],
    },
  ]);
});
