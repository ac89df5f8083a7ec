/** Client dates stored and returned in Kyiv time (docs/platform.md §Time and dates), on the engine the test server runs. */
import t from 'tap';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { aTender, createTender } from '../../fixtures/tenders';
import { aBudget, aPlan, createPlan } from '../../fixtures/plans';
import { createFramework } from '../../fixtures/frameworks';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const KYIV = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+0[23]:00$/;

t.test('a tender’s naive date is Kyiv time and a Z date moves to Kyiv’s offset, in the reply, on GET and where copied', async (t) => {
  const tender = await createTender(
    server,
    aTender({ enquiryPeriod: { endDate: '2026-10-12T00:00:00' }, tenderPeriod: { endDate: '2026-10-18T21:00:00Z' } }),
  );
  const read = (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;
  for (const data of [tender.data, read]) {
    t.equal(data.enquiryPeriod.endDate, '2026-10-12T00:00:00+03:00');
    t.equal(data.tenderPeriod.endDate, '2026-10-19T00:00:00+03:00');
    t.equal(data.tenderPeriod.startDate, '2026-10-12T00:00:00+03:00', 'copied from enquiryPeriod.endDate');
    t.match(data.dateModified, KYIV);
  }
});

t.test('a plan’s budget.period and tender period are stored in Kyiv time', async (t) => {
  const plan = await createPlan(
    server,
    aPlan({
      budget: aBudget({ period: { startDate: '2026-01-01T00:00:00', endDate: '2026-12-30T22:00:00.25Z' } }),
      tender: { procurementMethod: 'open', procurementMethodType: 'belowThreshold', tenderPeriod: { startDate: '2026-12-05T01:52:00' } },
    }),
  );
  const read = (await server.request('GET', `/api/2.5/plans/${plan.id}`)).body.data;
  t.same(read.budget.period, { startDate: '2026-01-01T00:00:00+02:00', endDate: '2026-12-31T00:00:00.250000+02:00' });
  t.equal(read.tender.tenderPeriod.startDate, '2026-12-05T01:52:00+02:00');
});

t.test('a framework’s qualificationPeriod sent in UTC is returned in Kyiv time', async (t) => {
  const { reply } = (await createFramework(server)) as unknown as {
    reply: { body: { data: { qualificationPeriod: { endDate: string } } } };
  };
  t.match(reply.body.data.qualificationPeriod.endDate, KYIV);
});
