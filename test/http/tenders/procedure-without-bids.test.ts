import t from 'tap';
import { TENDER_PROCEDURES } from '../../../src/domain/tender';
import { belowThreshold } from '../../../src/domain/tender/procedures/below-threshold';
import { errorReply, startTestServer, type TestServer } from '../../fixtures/server';
import { aBid, aTender, createTender } from '../../fixtures/tenders';

/**
 * A procedure without bids (`bids: null`, docs/architecture.md §Procedures as data) answers every bid route as the
 * reference answers a route no view of its type serves: 404 `not_found`. The probe is belowThreshold with its bids
 * taken away, registered for this file only.
 */
const PROBE = 'withoutBidsProbe';
TENDER_PROCEDURES[PROBE] = { ...belowThreshold, type: PROBE, bids: null };
t.teardown(() => {
  delete TENDER_PROCEDURES[PROBE];
});

let server: TestServer;
t.beforeEach(async () => {
  server = await startTestServer();
});
t.afterEach(() => server.close());

const NOT_FOUND = errorReply(404, 'url', 'not_found', 'Not Found');
const ANY_ID = 'f'.repeat(32);

t.test('every bid route of a tender without bids → 404 not_found; nothing stored changes', async (t) => {
  const tender = await createTender(server, aTender({ procurementMethodType: PROBE }));
  const before = (await server.store.session().get('tenders', tender.id))!.doc;
  const bids = `/api/2.5/tenders/${tender.id}/bids`;
  t.match(await server.request('POST', bids, { key: 'broker1', body: { data: aBid(tender, 450) } }), NOT_FOUND);
  t.match(await server.request('GET', bids), NOT_FOUND);
  t.match(await server.request('GET', `${bids}/${ANY_ID}`), NOT_FOUND);
  t.match(await server.request('PATCH', `${bids}/${ANY_ID}`, { key: 'broker1', body: { data: {} } }), NOT_FOUND);
  t.match(await server.request('DELETE', `${bids}/${ANY_ID}`, { key: 'broker1' }), NOT_FOUND);
  t.match(await server.request('GET', `${bids}/${ANY_ID}/documents`), NOT_FOUND);
  t.same((await server.store.session().get('tenders', tender.id))!.doc, before);
});

t.test('the same routes of a tender with bids answer as its procedure says', async (t) => {
  const tender = await createTender(server, aTender());
  const bids = `/api/2.5/tenders/${tender.id}/bids`;
  t.match(await server.request('GET', bids), errorReply(403, 'body', 'data', "Can't view bids in current (draft) tender status"));
  t.match(await server.request('GET', `${bids}/${ANY_ID}`), { status: 404, body: { errors: [{ name: 'bid_id' }] } });
});
