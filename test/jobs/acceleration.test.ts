import t from 'tap';
import { acceleratedDate, accelerationOf } from '../../src/time/acceleration';
import { calculateFullDate } from '../../src/time/periods';
import { aFramework, createFramework } from '../fixtures/frameworks';
import { errorReply as error, startTestServer, type TestServer } from '../fixtures/server';
import { playAuction } from '../../scripts/auction/play-auction';
import { aBid, aLot, anItem, aTender, belowThresholdConfig } from '../fixtures/tenders';

t.test('procurementMethodDetails "quick, accelerator=1440" → 1440; frameworkDetails likewise', async (t) => {
  t.equal(accelerationOf({ procurementMethodDetails: 'quick, accelerator=1440' }), 1440);
  t.equal(accelerationOf({ frameworkDetails: 'quick, accelerator=2880' }), 2880);
});

t.test('"accelerator=N" at the very start does not match the reference regex; 0 or no details → 1', async (t) => {
  t.equal(accelerationOf({ procurementMethodDetails: 'accelerator=1440' }), 1);
  t.equal(accelerationOf({ procurementMethodDetails: 'quick, accelerator=0' }), 1);
  t.equal(accelerationOf({}), 1);
});

t.test('accelerated 3 working days at 1440 → start + 3 minutes exactly, no normalization', async (t) => {
  const start = new Date('2026-10-05T12:34:56.789+03:00');
  t.equal(acceleratedDate(start, { days: 3, working: true }, 1440).getTime() - start.getTime(), 3 * 60_000);
  t.equal(calculateFullDate(start, { days: 3, working: true }, { accelerator: 1440, ceil: true }).getTime() - start.getTime(), 3 * 60_000);
  t.equal(acceleratedDate(start, { days: -30, working: false }, 1440).getTime() - start.getTime(), -30 * 60_000);
});

const NOW = new Date('2026-10-05T12:00:00+03:00');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000).toISOString();
const QUICK = 'quick, accelerator=1440';

/** A belowThreshold tender whose days are minutes: 3 "days" of enquiries, 2 of tendering. */
const quickTender = () => {
  const lotId = 'c'.repeat(32);
  return aTender({
    procurementMethodDetails: QUICK,
    enquiryPeriod: { endDate: minutes(3) },
    tenderPeriod: { endDate: minutes(5) },
    lots: [aLot({ id: lotId })],
    items: [anItem({ relatedLot: lotId })],
  });
};

async function chronograph(server: TestServer, kind: string, id: string) {
  return server.request('PATCH', `/api/2.5/${kind}/${id}/chronograph`, { key: 'chronograph', body: { data: { id } } });
}

t.test('with SANDBOX_MODE a tender lives its periods in minutes and moves on its own', async (t) => {
  const server = await startTestServer({ now: NOW, env: { SANDBOX_MODE: 'true' } });
  t.teardown(() => server.close());
  const created = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: { data: quickTender(), config: belowThresholdConfig() },
  });
  t.equal(created.status, 201, created.text);
  const { id } = created.body.data;
  t.match(created.body.data.enquiryPeriod, { startDate: '2026-10-05T12:00:00+03:00', clarificationsUntil: '2026-10-05T12:04:00+03:00' });
  const token = created.body.access.token;
  const activated = await server.request('PATCH', `/api/2.5/tenders/${id}`, {
    key: 'broker',
    token,
    body: { data: { status: 'active.enquiries' } },
  });
  t.equal(activated.status, 200, activated.text);

  server.clock.set(new Date(minutes(3)));
  t.equal((await chronograph(server, 'tenders', id)).body.data.status, 'active.tendering');
  server.clock.set(new Date(minutes(5)));
  t.not((await chronograph(server, 'tenders', id)).body.data.status, 'active.tendering', 'tendering ended after 2 "days" of minutes');
});

t.test('with SANDBOX_MODE bids, the end of tendering and the auction module run in minutes → a pending award', async (t) => {
  const server = await startTestServer({ now: NOW, env: { SANDBOX_MODE: 'true' } });
  t.teardown(() => server.close());
  const created = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: { data: quickTender(), config: belowThresholdConfig() },
  });
  const { id } = created.body.data;
  await server.request('PATCH', `/api/2.5/tenders/${id}`, {
    key: 'broker',
    token: created.body.access.token,
    body: { data: { status: 'active.enquiries' } },
  });
  server.clock.set(new Date(minutes(3)));
  await chronograph(server, 'tenders', id);
  for (const [n, key] of [
    [1, 'broker1'],
    [2, 'broker2'],
  ] as const) {
    const bid = await server.request('POST', `/api/2.5/tenders/${id}/bids`, {
      key,
      body: { data: aBid(created.body, 460 - n, n, { status: 'pending' }) },
    });
    t.equal(bid.status, 201, bid.text);
  }
  server.clock.set(new Date(minutes(5)));
  t.equal((await chronograph(server, 'tenders', id)).body.data.status, 'active.auction');
  const request = (method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown) =>
    server.request(method, path, { key: 'auction', body });
  t.equal(await playAuction({ request, auctionBase: 'https://auction.example.org' }, id), true);
  const tender = (await server.request('GET', `/api/2.5/tenders/${id}`)).body.data;
  t.match(tender, { status: 'active.qualification', awards: [{ status: 'pending', value: { amount: 458 } }] });
});

t.test('with SANDBOX_MODE a framework is activated with minutes for days', async (t) => {
  const server = await startTestServer({ now: NOW, env: { SANDBOX_MODE: 'true' } });
  t.teardown(() => server.close());
  // 365 "days" at 1440 is 365 minutes: a qualification period of 400 minutes is within bounds.
  const framework = await createFramework(server, {
    data: aFramework(NOW, { frameworkDetails: QUICK, qualificationPeriod: { endDate: minutes(400) } }),
  });
  const activated = await server.request('PATCH', `/api/2.5/frameworks/${framework.id}`, {
    key: 'broker',
    token: framework.token,
    body: { data: { status: 'active' } },
  });
  t.equal(activated.status, 200, activated.text);
  t.match(activated.body.data, {
    enquiryPeriod: {
      startDate: '2026-10-05T12:00:00+03:00',
      endDate: '2026-10-05T12:10:00+03:00',
      clarificationsUntil: '2026-10-05T12:13:00+03:00',
    },
    period: { endDate: '2026-10-05T18:10:00+03:00' },
    next_check: '2026-10-05T12:15:00+03:00',
  });
});

t.test('without SANDBOX_MODE the accelerator fields are rogue, on create and on patch', async (t) => {
  const server = await startTestServer({ now: NOW });
  t.teardown(() => server.close());
  const tender = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: { data: quickTender(), config: belowThresholdConfig() },
  });
  t.match(tender, error(422, 'body', 'procurementMethodDetails', 'Rogue field'));
  const framework = await server.request('POST', '/api/2.5/frameworks', {
    key: 'broker',
    body: { data: aFramework(NOW, { frameworkDetails: QUICK }) },
  });
  t.match(framework, error(422, 'body', 'frameworkDetails', 'Rogue field'));
  const draft = await createFramework(server);
  const patched = await server.request('PATCH', `/api/2.5/frameworks/${draft.id}`, {
    key: 'broker',
    token: draft.token,
    body: { data: { frameworkDetails: QUICK } },
  });
  t.match(patched, error(422, 'body', 'frameworkDetails', 'Rogue field'));
});

t.test('a rogue frameworkDetails answers after the route table: unknown framework → 404, no key or token → 403', async (t) => {
  const server = await startTestServer({ now: NOW });
  t.teardown(() => server.close());
  const body = { data: aFramework(NOW, { frameworkDetails: QUICK }) };
  t.match(await server.request('POST', '/api/2.5/frameworks', { body }), error(403, 'url', 'permission', 'Forbidden'));
  const draft = await createFramework(server);
  const patch = { data: { frameworkDetails: QUICK } };
  const unknown = await server.request('PATCH', `/api/2.5/frameworks/${'f'.repeat(32)}`, {
    key: 'broker',
    token: draft.token,
    body: patch,
  });
  t.match(unknown, error(404, 'url', 'framework_id', 'Not Found'));
  const tokenless = await server.request('PATCH', `/api/2.5/frameworks/${draft.id}`, { key: 'broker', body: patch });
  t.match(tokenless, error(403, 'url', 'permission', 'Forbidden'));
});
