import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aContract, aTender, createTender } from '../../fixtures/tenders';

/** The two costliest bodies of the worst-bodies check (docs/reliability.md), each about 1 MB, within BODY_LIMIT. */
const arrayOfEmptyObjects = `{"data": {"title": "змінено", "additionalContactPoints": [${Array(340_000).fill('{}').join(',')}]}}`;
const unknownKeys = `{"data": {"title": "змінено", ${Array.from({ length: 85_000 }, (_, i) => `"k${i}":1`).join(',')}}}`;

let server: TestServer;
let contract: { id: string; token: string };
t.before(async () => {
  server = await startTestServer();
  const tender = await createTender(server, aTender());
  const res = await server.request('POST', '/api/2.5/contracts', { key: 'contracting', body: { data: aContract(tender.id) } });
  contract = { id: res.body.data.id, token: res.body.access.token };
});
t.teardown(() => server.close());

const read = () => server.request('GET', `/api/2.5/contracts/${contract.id}`);
const patch = (raw: string) => server.request('PATCH', `/api/2.5/contracts/${contract.id}`, { key: 'broker', token: contract.token, raw });

t.test('1 MB of {} in a list → 422 body/data "JSON with more than 50000 objects and arrays", nothing stored', async (t) => {
  t.ok(Buffer.byteLength(arrayOfEmptyObjects) <= server.config.bodyLimit, 'within BODY_LIMIT');
  const before = await read();
  t.match(await patch(arrayOfEmptyObjects), error(422, 'body', 'data', 'JSON with more than 50000 objects and arrays'));
  t.same((await read()).body, before.body);
});

t.test('1 MB of unknown keys in one object → 422 body/data "JSON object with more than 1000 members", nothing stored', async (t) => {
  t.ok(Buffer.byteLength(unknownKeys) <= server.config.bodyLimit, 'within BODY_LIMIT');
  const before = await read();
  t.match(await patch(unknownKeys), error(422, 'body', 'data', 'JSON object with more than 1000 members'));
  t.same((await read()).body, before.body);
});

t.test('the same body cut short → the parser text, as any malformed body', async (t) => {
  t.match(
    await patch(arrayOfEmptyObjects.slice(0, -3)),
    error(422, 'body', 'data', `Expecting value: line 1 column ${arrayOfEmptyObjects.length - 2} (char ${arrayOfEmptyObjects.length - 3})`),
  );
});

t.test('a PATCH within the bounds still applies', async (t) => {
  const res = await patch(JSON.stringify({ data: { title: 'змінено' } }));
  t.equal(res.status, 200);
  t.equal((await read()).body.data.title, 'змінено');
});
