import t from 'tap';
import { checks } from '../../../src/domain/kind-checks';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { getTender, insertTender, newId, tenderRunner } from '../../jobs/fixtures/tenders';

const HOUR = 3_600_000;
let server: TestServer;
const original = checks.tenders;

t.before(async () => {
  // The engine is under test, not a procedure: a tender-like object and its test runner.
  checks.tenders = tenderRunner;
  server = await startTestServer();
});
t.teardown(async () => {
  checks.tenders = original;
  await server.close();
});

const at = (hours: number) => new Date(server.clock.now().getTime() + hours * HOUR);
const patch = (kind: string, id: string, key?: string, body: unknown = { data: { id } }) =>
  server.request('PATCH', `/api/2.5/${kind}/${id}/chronograph`, { key, body });

t.test('chronograph PATCH after next_check → 200 with the switched tender in the chronograph view', async (t) => {
  const id = await insertTender(server.store, at(-1), at(5));
  const res = await patch('tenders', id, 'chronograph');
  t.equal(res.status, 200);
  t.same(res.body, {
    data: {
      id,
      status: 'active.tendering',
      enquiryPeriod: { endDate: at(-1).toISOString() },
      tenderPeriod: { endDate: at(5).toISOString() },
      next_check: at(5).toISOString(),
    },
    config: { hasAuction: false },
  });
  t.equal((await getTender(server.store, id)).rev, 2);
});

t.test('chronograph PATCH before anything is due → 200 with the object unchanged (no-op run)', async (t) => {
  const id = await insertTender(server.store, at(1), at(5));
  const res = await patch('tenders', id, 'chronograph');
  t.equal(res.status, 200);
  t.equal(res.body.data.status, 'active.enquiries');
  t.equal((await getTender(server.store, id)).rev, 1);
});

t.test('chronograph PATCH by a broker → 403 url/permission/Forbidden and nothing changes', async (t) => {
  const id = await insertTender(server.store, at(-1), at(5));
  const res = await patch('tenders', id, 'broker');
  t.equal(res.status, 403);
  t.same(res.body, { status: 'error', errors: [{ location: 'url', name: 'permission', description: 'Forbidden' }] });
  t.equal((await getTender(server.store, id)).rev, 1);
});

t.test('chronograph PATCH without a key → 403 url/permission/Forbidden', async (t) => {
  const id = await insertTender(server.store, at(-1), at(5));
  t.equal((await patch('tenders', id)).status, 403);
});

t.test('chronograph PATCH of an unknown tender → 404 url/tender_id/Not Found', async (t) => {
  const res = await patch('tenders', newId(), 'chronograph');
  t.equal(res.status, 404);
  t.same(res.body.errors, [{ location: 'url', name: 'tender_id', description: 'Not Found' }]);
});

t.test('chronograph PATCH of an unknown framework or agreement → 404 framework_id / agreement_id', async (t) => {
  t.equal((await patch('frameworks', newId(), 'chronograph')).body.errors[0].name, 'framework_id');
  t.equal((await patch('agreements', newId(), 'chronograph')).body.errors[0].name, 'agreement_id');
});

t.test('chronograph PATCH without data → 422 Data not available', async (t) => {
  const id = await insertTender(server.store, at(-1), at(5));
  const res = await patch('tenders', id, 'chronograph', {});
  t.equal(res.status, 422);
  t.same(res.body.errors, [{ location: 'body', name: 'data', description: 'Data not available' }]);
});
