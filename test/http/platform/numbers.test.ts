import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import {
  aCompetitiveOrderingTender,
  aContract,
  aLot,
  anItem,
  competitiveOrderingConfig,
  createLottedTender,
  createTender,
  insertAgreement,
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
