import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../fixtures/server';
import { aLot, aTender, anItem, belowThresholdConfig, createTender } from '../fixtures/tenders';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const LOT = 'd'.repeat(32);

/** An aboveThreshold draft request with one lot: tendering from now (Mon 2026-10-05 12:00) to 2026-10-20. */
const anAboveThresholdTender = (overrides: Record<string, unknown> = {}) => {
  const { enquiryPeriod: _e, ...rest } = aTender({ lots: [aLot({ id: LOT })], items: [anItem({ relatedLot: LOT })] });
  return { ...rest, procurementMethodType: 'aboveThreshold', tenderPeriod: { endDate: '2026-10-20T00:00:00+03:00' }, ...overrides };
};
const aboveThresholdConfig = (overrides: Record<string, unknown> = {}) =>
  belowThresholdConfig({ hasTenderComplaints: true, hasAwardComplaints: true, hasCancellationComplaints: true, ...overrides });

t.test('creation: open, periods computed by the server', async (t) => {
  const tender = await createTender(server, anAboveThresholdTender(), aboveThresholdConfig());
  t.match(tender.data, {
    status: 'draft',
    procurementMethod: 'open',
    procurementMethodType: 'aboveThreshold',
    tenderPeriod: { startDate: '2026-10-05T12:00:00+03:00', endDate: '2026-10-20T00:00:00+03:00' },
    enquiryPeriod: {
      startDate: '2026-10-05T12:00:00+03:00',
      endDate: '2026-10-17T00:00:00+03:00',
      clarificationsUntil: '2026-10-20T00:00:00+03:00',
    },
    complaintPeriod: { startDate: '2026-10-05T12:00:00+03:00', endDate: '2026-10-17T00:00:00+03:00' },
  });
  const res = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { status: 'active.tendering' } },
  });
  t.equal(res.status, 200, res.text);
  t.match(res.body.data, { status: 'active.tendering', next_check: '2026-10-20T00:00:00+03:00' });
  t.same(res.body.config, aboveThresholdConfig());
  const refused = await server.request('POST', '/api/2.5/tenders', {
    key: 'broker',
    body: { data: anAboveThresholdTender(), config: aboveThresholdConfig({ hasTenderComplaints: false }) },
  });
  t.same({ status: refused.status, body: refused.body }, error(422, 'body', 'hasTenderComplaints', 'False is not one of [True]'));
});
