import t from 'tap';
import { tenderCheck } from '../../src/domain/tender/tender.check';

import { startTestServer, type TestServer } from '../fixtures/server';
import { belowThresholdConfig, createLottedTender } from '../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

/** Runs the tender check as the worker would, with an injected "now", and commits what it returns. */
async function runCheck(id: string, now: string) {
  const session = server.store.session();
  const stored = (await session.get('tenders', id))!;
  const changes = await tenderCheck(session, stored, new Date(now));
  if (changes.length) await session.commit(changes);
  return changes.length;
}
const get = async (id: string, key?: string) => (await server.request('GET', `/api/2.5/tenders/${id}`, { key })).body;

t.test('belowThreshold: create → patch → activate → feed → tendering → unsuccessful without bids', async (t) => {
  const tender = await createLottedTender(server);
  const patched = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { description: 'Опис' } },
  });
  t.equal(patched.status, 200);

  const draftFeed = await server.request('GET', '/api/2.5/tenders');
  t.notOk(
    draftFeed.body.data.some((e: { id: string }) => e.id === tender.id),
    'drafts are not in the feed',
  );

  const active = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  t.equal(active.body.data.status, 'active.enquiries');

  const feed = await server.request('GET', '/api/2.5/tenders?opt_fields=status,tenderID,next_check,title');
  const entry = feed.body.data.find((e: { id: string }) => e.id === tender.id);
  t.same(
    entry,
    {
      id: tender.id,
      dateModified: active.body.data.dateModified,
      next_check: '2026-10-12T00:00:00+03:00',
      status: 'active.enquiries',
      tenderID: tender.data.tenderID,
    },
    'title is not an allowed opt_field',
  );

  t.equal(await runCheck(tender.id, '2026-10-11T23:59:59+03:00'), 0, 'nothing is due before tenderPeriod.startDate');

  t.equal(await runCheck(tender.id, '2026-10-12T00:00:00+03:00'), 1);
  const tendering = await get(tender.id);
  t.match(tendering.data, {
    status: 'active.tendering',
    date: '2026-10-12T00:00:00+03:00',
    dateModified: '2026-10-12T00:00:00+03:00',
    next_check: '2026-10-19T00:00:00+03:00',
    lots: [{ status: 'active', auctionPeriod: { shouldStartAfter: '2026-10-19T00:00:00+03:00' } }],
  });

  t.equal(await runCheck(tender.id, '2026-10-19T00:00:05+03:00'), 1);
  const ended = await get(tender.id);
  t.match(ended.data, { status: 'unsuccessful', date: '2026-10-19T00:00:05+03:00', lots: [{ status: 'unsuccessful' }] });
  t.notOk(ended.data.lots[0].auctionPeriod, 'auction periods are dropped');
  t.notOk('next_check' in ended.data, 'nothing left to check');
});

t.test('a check that ran late applies both transitions in one run', async (t) => {
  const tender = await createLottedTender(server);
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  t.equal(await runCheck(tender.id, '2026-10-20T00:00:00+03:00'), 1);
  t.equal((await get(tender.id)).data.status, 'unsuccessful');
});

t.test('the chronograph PATCH runs the tender check', async (t) => {
  const tender = await createLottedTender(server);
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  server.clock.set(new Date('2026-10-12T00:00:00+03:00'));
  const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}/chronograph`, {
    key: 'chronograph',
    body: { data: { id: tender.id } },
  });
  server.clock.set(new Date('2026-10-05T12:00:00+03:00'));
  t.equal(res.body.data.status, 'active.tendering');
});

t.test('without an auction no auction period is planned when tendering starts', async (t) => {
  const tender = await createLottedTender(server, belowThresholdConfig({ hasAuction: false }));
  await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.enquiries' } },
  });
  await runCheck(tender.id, '2026-10-12T00:00:00+03:00');
  t.notOk((await get(tender.id)).data.lots[0].auctionPeriod);
});

t.test('spec-era worked example: enquiry end 2023-10-17T00:00+02:00 → clarificationsUntil 2023-10-19T00:00:00+03:00', async (t) => {
  const old = await startTestServer({ now: new Date('2023-10-10T01:00:00+03:00') });
  t.teardown(() => old.close());
  const { aTender } = await import('../fixtures/tenders');
  const res = await old.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: {
      data: aTender({ enquiryPeriod: { endDate: '2023-10-17T00:00:00+02:00' }, tenderPeriod: { endDate: '2023-10-24T00:00:00+02:00' } }),
      config: belowThresholdConfig(),
    },
  });
  t.same(res.body.data.enquiryPeriod, {
    endDate: '2023-10-17T00:00:00+02:00',
    startDate: '2023-10-10T01:00:00+03:00',
    clarificationsUntil: '2023-10-19T00:00:00+03:00',
  });
});
