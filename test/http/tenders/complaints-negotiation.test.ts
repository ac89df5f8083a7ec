import t from 'tap';
import { readRecording } from '../../fixtures/reference-recording';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aComplaint, anObjection, awardedNegotiation, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';
import type { Created } from '../../fixtures/tenders';

/**
 * Complaints on negotiation, whose config allows them (docs/tenders.md §Complaints): an award complaint holds the
 * contract past the stand-still until the review body declines it; a cancellation complaint holds the cancellation;
 * tender complaints have no route.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const TUTORIAL = 'tendering/limited/http/tutorial';
const recorded = (name: string) => readRecording(`${TUTORIAL}/${name}.http`);
const REVIEW = { reviewDate: '2026-10-10T00:00:00+03:00', reviewPlace: 'Place of review' };
const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });
const tenderPath = (tender: Created, tail = '') => `/api/2.5/tenders/${tender.id}${tail}`;
const owner = (tender: Created, method: string, tail: string, data: unknown) =>
  server.request(method, tenderPath(tender, tail), { key: 'broker', token: tender.token, body: { data } });

t.test('negotiation: an award complaint holds the contract past the stand-still; declined, it is signed', async (t) => {
  const { tender, lot, award } = await awardedNegotiation(server);
  t.same(
    reply(await server.request('POST', complaintsPath(tender), { key: 'broker1', body: { data: aComplaint(undefined) } })),
    error(404, 'url', 'not_found', 'Not Found'),
  );
  const host = `/awards/${award.id}`;
  const made = await postComplaint(server, complaintsPath(tender, host), aComplaint([anObjection('award', award.id)]));
  const fee = Math.ceil(Math.min(Math.max(lot.value.amount * 0.006, 3000), 170000) / 10) * 10;
  t.match(made.body.data, { status: 'draft', relatedLot: lot.id, value: { amount: fee, currency: 'UAH' } }, 'the enhanced fee of the lot');
  const one = `${complaintsPath(tender, host)}/${made.body.data.id}`;
  t.equal((await patchComplaint(server, one, { status: 'pending' }, 'bot')).status, 200);
  server.clock.set(new Date(Date.parse(award.complaintPeriod.endDate) + 60_000));
  const contract = (await server.request('GET', tenderPath(tender, '/contracts'))).body.data[0];
  const sign = () =>
    server.request('PATCH', `/api/2.5/contracts/${contract.id}`, {
      key: 'broker',
      token: tender.token,
      body: { data: { status: 'active' } },
    });
  t.same(reply(await sign()), error(403, 'body', 'data', "Can't sign contract before reviewing all complaints"));
  t.equal((await patchComplaint(server, one, { status: 'accepted', ...REVIEW }, 'reviewer')).status, 200);
  t.equal((await patchComplaint(server, one, { status: 'declined' }, 'reviewer')).status, 200);
  const signed = await sign();
  t.equal(signed.status, 200, signed.text);
  t.equal((await server.request('GET', tenderPath(tender))).body.data.status, 'complete');
});

t.test('negotiation: a cancellation complaint holds the cancellation; satisfied, it still holds it', async (t) => {
  const { tender, award } = await awardedNegotiation(server);
  server.clock.set(new Date(Date.parse(award.complaintPeriod.endDate) + 60_000));
  const cancellation = (await owner(tender, 'POST', '/cancellations', recorded('negotiation-prepare-cancellation').requestBody.data)).body
    .data;
  await owner(tender, 'PATCH', `/cancellations/${cancellation.id}`, { reasonType: 'dateViolation' });
  const form = new FormData();
  form.append('file', new Blob(['notice']), 'Notice.pdf');
  await fetch(`${server.url}${tenderPath(tender, `/cancellations/${cancellation.id}/documents`)}?acc_token=${tender.token}`, {
    method: 'POST',
    headers: { authorization: 'Bearer broker' },
    body: form,
  });
  const pending = await owner(tender, 'PATCH', `/cancellations/${cancellation.id}`, { status: 'pending' });
  t.equal(pending.status, 200, pending.text);
  const host = `/cancellations/${cancellation.id}`;
  const made = await postComplaint(server, complaintsPath(tender, host), aComplaint([anObjection('cancellation', cancellation.id)]));
  const one = `${complaintsPath(tender, host)}/${made.body.data.id}`;
  await patchComplaint(server, one, { status: 'pending' }, 'bot');
  await patchComplaint(server, one, { status: 'accepted', ...REVIEW }, 'reviewer');
  await patchComplaint(server, one, { status: 'satisfied' }, 'reviewer');
  server.clock.set(new Date(Date.parse(pending.body.data.complaintPeriod.endDate) + 60_000));
  await server.request('PATCH', tenderPath(tender, '/chronograph'), { key: 'chronograph', body: { data: { id: tender.id } } });
  const read = (await server.request('GET', tenderPath(tender))).body.data;
  t.equal(read.cancellations[0].status, 'pending', 'a satisfied complaint holds the cancellation');
  t.equal(read.status, 'active');
});
