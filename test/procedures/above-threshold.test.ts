import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { playAuction } from '../../scripts/auction/play-auction';
import { aTenderer } from '../fixtures/frameworks';
import { decision, patchAward, signContract } from '../fixtures/awards';
import { aCancellation, patchCancellation, postCancellation, uploadCancellationDocument } from '../fixtures/cancellations';
import { readRecording } from '../fixtures/reference-recording';
import { errorReply as error, startTestServer, type TestServer } from '../fixtures/server';
import {
  aBid,
  aLot,
  aTender,
  anItem,
  belowThresholdConfig,
  createTender,
  placeBid,
  runChronograph,
  type Created,
} from '../fixtures/tenders';

/**
 * aboveThreshold over HTTP (docs/tenders.md §aboveThreshold): creation and its refusals, activation, questions,
 * sealed bids, the owner's edits, the auction, award decisions, the stand-still holding the contract, the signed
 * contract completing the tender, cancellations. Each test has its own server, its clock moved by hand.
 */

const LOT = 'd'.repeat(32);
const TENDERING_END = '2026-10-21T00:00:00+03:00';

/** An aboveThreshold draft request with one lot: tendering from now (Mon 2026-10-05 12:00) to 2026-10-21,
 * the least the default `minTenderingDuration` (15 full calendar days) allows. */
const anAboveThresholdTender = (overrides: Record<string, unknown> = {}) => {
  const { enquiryPeriod: _e, ...rest } = aTender({ lots: [aLot({ id: LOT })], items: [anItem({ relatedLot: LOT })] });
  return { ...rest, procurementMethodType: 'aboveThreshold', tenderPeriod: { endDate: TENDERING_END }, ...overrides };
};
const aboveThresholdConfig = (overrides: Record<string, unknown> = {}) =>
  belowThresholdConfig({
    hasTenderComplaints: true,
    hasAwardComplaints: true,
    hasCancellationComplaints: true,
    minTenderingDuration: 15,
    ...overrides,
  });

const post = (server: TestServer, data: unknown, config: unknown = aboveThresholdConfig(), key = 'broker') =>
  server.request('POST', '/api/2.5/tenders', { key, body: { data, config } });
const patchTender = (server: TestServer, tender: Created, data: unknown) =>
  server.request('PATCH', `/api/2.5/tenders/${tender.id}`, { key: 'broker', token: tender.token, body: { data } });
const read = async (server: TestServer, tender: Created) => (await server.request('GET', `/api/2.5/tenders/${tender.id}`)).body.data;

async function server(t: Pick<typeof import('tap'), 'teardown'>): Promise<TestServer> {
  const started = await startTestServer();
  t.teardown(() => started.close());
  return started;
}

/** A draft, activated: in active.tendering. */
async function tendering(s: TestServer): Promise<Created> {
  const tender = await createTender(s, anAboveThresholdTender(), aboveThresholdConfig());
  const res = await patchTender(s, tender, { status: 'active.tendering' });
  if (res.status !== 200) throw new Error(res.text);
  return { ...tender, data: res.body.data };
}

t.test('creation: open, enquiryPeriod and complaintPeriod computed by the server; activation into tendering', async (t) => {
  const s = await server(t);
  const tender = await createTender(s, anAboveThresholdTender(), aboveThresholdConfig());
  t.match(tender.data, {
    status: 'draft',
    procurementMethod: 'open',
    procurementMethodType: 'aboveThreshold',
    submissionMethod: 'electronicAuction',
    tenderPeriod: { startDate: '2026-10-05T12:00:00+03:00', endDate: TENDERING_END },
    enquiryPeriod: {
      startDate: '2026-10-05T12:00:00+03:00',
      endDate: '2026-10-18T00:00:00+03:00',
      clarificationsUntil: TENDERING_END,
    },
    complaintPeriod: { startDate: '2026-10-05T12:00:00+03:00', endDate: '2026-10-18T00:00:00+03:00' },
  });
  t.same(tender.config, aboveThresholdConfig(), 'the config as sent');
  t.same((await createTender(s, anAboveThresholdTender(), {})).config, aboveThresholdConfig(), "the standards' defaults");

  s.clock.advance(60_000);
  const res = await patchTender(s, tender, { status: 'active.tendering' });
  t.equal(res.status, 200, res.text);
  t.match(res.body.data, {
    status: 'active.tendering',
    date: '2026-10-05T12:01:00+03:00',
    next_check: TENDERING_END,
    enquiryPeriod: { invalidationDate: '2026-10-05T12:01:00+03:00' },
    complaintPeriod: { endDate: '2026-10-18T00:00:00+03:00' },
    lots: [{ auctionPeriod: { shouldStartAfter: TENDERING_END } }],
  });
  t.ok(res.body.data.criteria.length >= 9, "the spec's criteria are added at activation");
  t.same(res.body.data.complaints, undefined);
  t.same((await s.request('GET', `/api/2.5/tenders/${tender.id}/complaints`)).body, { data: [] }, 'the complaint list is served');
});

t.test("the tutorial's creation replayed at its own now: the same computed periods", async (t) => {
  const s = await startTestServer({ now: new Date('2027-01-01T00:00:00+02:00') });
  t.teardown(() => s.close());
  const recording = readRecording('tendering/open/http/tender-post-attempt-json-data.http');
  const { data, config } = recording.requestBody;
  // The spec era requires a tender's minimal step with an auction (docs/tenders.md §Minimal step); HEAD does not.
  const res = await post(s, { ...data, minimalStep: { amount: 5 } }, config);
  t.equal(res.status, recording.status, res.text);
  const pick = (d: any) => ({
    status: d.status,
    procurementMethod: d.procurementMethod,
    submissionMethod: d.submissionMethod,
    tenderPeriod: d.tenderPeriod,
    enquiryPeriod: d.enquiryPeriod,
    complaintPeriod: d.complaintPeriod,
  });
  t.same(pick(res.body.data), pick(recording.responseBody.data));
  t.same(res.body.config, aboveThresholdConfig({ hasValueRestriction: false }), "the reference's HEAD-only keys are accepted and not kept");
});

t.test('creation refusals, with the reference texts', async (t) => {
  const s = await server(t);
  t.match(
    await post(s, anAboveThresholdTender({ tenderPeriod: { endDate: '2026-10-12T00:00:00+03:00' } })),
    error(422, 'body', 'tenderPeriod', ['tenderPeriod must be at least 15 full calendar days long']),
  );
  t.match(
    await post(s, anAboveThresholdTender({ tenderPeriod: { endDate: '2026-10-20T00:00:00+03:00' } })),
    error(422, 'body', 'tenderPeriod', ['tenderPeriod must be at least 15 full calendar days long']),
    'the default is 15 days',
  );
  t.match(
    await post(
      s,
      anAboveThresholdTender({ tenderPeriod: { endDate: '2026-10-12T00:00:00+03:00' } }),
      aboveThresholdConfig({ minTenderingDuration: 7 }),
    ),
    error(422, 'body', 'tenderPeriod', ['tenderPeriod must be at least 7 full calendar days long']),
  );
  const week = await post(
    s,
    anAboveThresholdTender({ tenderPeriod: { endDate: '2026-10-13T00:00:00+03:00' } }),
    aboveThresholdConfig({ minTenderingDuration: 7 }),
  );
  t.equal(week.status, 201, 'minTenderingDuration 7 allows a week');
  t.equal(week.body.config.minTenderingDuration, 7);
  t.match(
    await post(s, anAboveThresholdTender({ enquiryPeriod: { endDate: '2026-10-12T00:00:00+03:00' } })),
    error(422, 'body', 'enquiryPeriod', 'Rogue field'),
  );
  t.match(
    await post(s, anAboveThresholdTender({ complaintPeriod: { startDate: '2026-10-05T12:00:00+03:00', endDate: TENDERING_END } })),
    error(422, 'body', 'complaintPeriod', 'Rogue field'),
  );
  t.match(
    await post(s, anAboveThresholdTender({ procurementMethod: 'selective' })),
    error(422, 'body', 'procurementMethod', 'procurementMethod should be open'),
  );
  const refusedConfigs: [Record<string, unknown>, string, string][] = [
    [{ hasTenderComplaints: false }, 'hasTenderComplaints', 'False is not one of [True]'],
    [{ hasAwardComplaints: false }, 'hasAwardComplaints', 'False is not one of [True]'],
    [{ hasCancellationComplaints: false }, 'hasCancellationComplaints', 'False is not one of [True]'],
    [{ hasAwardingOrder: false }, 'hasAwardingOrder', 'False is not one of [True]'],
    [{ hasPrequalification: true }, 'hasPrequalification', 'True is not one of [False]'],
    [{ hasPreSelectionAgreement: true }, 'hasPreSelectionAgreement', 'True is not one of [False]'],
    [{ restricted: true }, 'restricted', 'True is not one of [False]'],
    [{ minBidsNumber: 2 }, 'minBidsNumber', '2 is greater than the maximum of 1'],
    [{ hasTenderComplaints: 'yes' }, 'hasTenderComplaints', "'yes' is not of type 'boolean'"],
    [{ minTenderingDuration: 10 }, 'minTenderingDuration', '10 is not one of [7, 15]'],
    [{ minTenderingDuration: 30 }, 'minTenderingDuration', '30 is not one of [7, 15]'],
    [{ minTenderingDuration: '7' }, 'minTenderingDuration', "'7' is not of type 'integer'"],
  ];
  for (const [config, name, text] of refusedConfigs) {
    t.match(await post(s, anAboveThresholdTender(), aboveThresholdConfig(config)), error(422, 'body', name, text), name);
  }
  t.equal((await post(s, anAboveThresholdTender(), aboveThresholdConfig({ hasAuction: false, hasValueRestriction: false }))).status, 201);

  const dir = mkdtempSync(join(tmpdir(), 'auth-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'auth.ini'), '[brokers]\nbroker1 = broker1,1\nbroker4 = broker4,4\n');
  const limited = await startTestServer({ env: { AUTH_FILE: join(dir, 'auth.ini') } });
  t.teardown(() => limited.close());
  for (const key of ['broker1', 'broker4']) {
    t.match(
      await post(limited, anAboveThresholdTender(), aboveThresholdConfig(), key),
      error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit tender creation'),
      `level ${key.at(-1)} may not create`,
    );
  }
});

t.test('questions during the enquiry part of tendering; answers until clarificationsUntil', async (t) => {
  const s = await server(t);
  const tender = await tendering(s);
  const question = { author: aTenderer('00137226'), title: 'Калорійність', description: 'Просимо додати таблицю' };
  const asked = await s.request('POST', `/api/2.5/tenders/${tender.id}/questions`, { key: 'broker1', body: { data: question } });
  t.equal(asked.status, 201, asked.text);
  s.clock.set(new Date('2026-10-18T00:00:01+03:00'));
  t.match(
    await s.request('POST', `/api/2.5/tenders/${tender.id}/questions`, { key: 'broker1', body: { data: question } }),
    error(403, 'body', 'data', 'Can add question only in enquiryPeriod'),
  );
  const answered = await s.request('PATCH', `/api/2.5/tenders/${tender.id}/questions/${asked.body.data.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { answer: 'Таблицю додано' } },
  });
  t.equal(answered.status, 200, answered.text);
  t.equal(answered.body.data.answer, 'Таблицю додано');
});

t.test("the owner's edits in tendering invalidate the bids; fewer than 4 days left is refused", async (t) => {
  const s = await server(t);
  const tender = await tendering(s);
  const bid = await placeBid(s, tender, 450, 1, 'broker1');
  s.clock.set(new Date('2026-10-08T12:00:00+03:00'));
  const edited = await patchTender(s, tender, { description: 'Уточнений опис' });
  t.equal(edited.status, 200, edited.text);
  t.equal(edited.body.data.enquiryPeriod.invalidationDate, '2026-10-08T12:00:00+03:00');
  const own = await s.request('GET', `/api/2.5/tenders/${tender.id}/bids/${bid.id}?acc_token=${bid.token}`, { key: 'broker1' });
  t.equal(own.body.data.status, 'invalid', 'the bid made before the change');
  const confirmed = await s.request('PATCH', `/api/2.5/tenders/${tender.id}/bids/${bid.id}`, {
    key: 'broker1',
    token: bid.token,
    body: { data: { status: 'pending' } },
  });
  t.equal(confirmed.status, 200, confirmed.text);
  t.equal(confirmed.body.data.status, 'pending', 'the bidder confirms again');

  s.clock.set(new Date('2026-10-17T12:00:00+03:00'));
  t.match(await patchTender(s, tender, { description: 'Ще раз' }), error(403, 'body', 'data', 'tenderPeriod should be extended by 4 days'));
  const extended = await patchTender(s, tender, { tenderPeriod: { ...tender.data.tenderPeriod, endDate: '2026-10-25T00:00:00+03:00' } });
  t.equal(extended.status, 200, extended.text);
  t.match(extended.body.data, {
    next_check: '2026-10-25T00:00:00+03:00',
    enquiryPeriod: { endDate: '2026-10-22T00:00:00+03:00', clarificationsUntil: '2026-10-25T00:00:00+03:00' },
    complaintPeriod: { startDate: '2026-10-05T12:00:00+03:00', endDate: '2026-10-22T00:00:00+03:00' },
  });
  t.match(
    await patchTender(s, tender, { complaintPeriod: { endDate: TENDERING_END } }),
    error(422, 'body', 'complaintPeriod', 'Rogue field'),
  );
});

t.test('the whole life: sealed bids, auction, award decisions, the stand-still holding the contract, complete', async (t) => {
  const s = await server(t);
  const tender = await tendering(s);
  const bids = [await placeBid(s, tender, 450, 1, 'broker1'), await placeBid(s, tender, 440, 2, 'broker2')];
  t.match(
    await s.request('GET', `/api/2.5/tenders/${tender.id}/bids`),
    error(403, 'body', 'data', "Can't view bids in current (active.tendering) tender status"),
  );
  t.notOk('bids' in (await read(s, tender)), 'bids are sealed while tendering');

  s.clock.set(new Date(Date.parse(TENDERING_END) + 60_000));
  await runChronograph(s, tender.id);
  const auction = await read(s, tender);
  t.equal(auction.status, 'active.auction');
  t.notOk('bids' in auction, 'bids are sealed until the auction is over');

  await playAuction(
    { request: (method, path, body) => s.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const qualification = await read(s, tender);
  t.equal(qualification.status, 'active.qualification');
  t.equal(qualification.bids.length, 2, 'bids are public after the auction');
  const [award] = qualification.awards;
  t.match(award, { status: 'pending', bid_id: bids[1].id, lotID: LOT, value: { amount: 440 } });

  t.match(
    await patchAward(s, tender, award.id, { status: 'active', qualified: false, eligible: true }),
    error(422, 'body', 'qualified', ["Can't update award to active status with not qualified"]),
  );
  t.match(
    await patchAward(s, tender, award.id, { status: 'unsuccessful', qualified: true, eligible: true }),
    error(422, 'body', 'qualified', ["Can't update award to unsuccessful status when qualified/eligible isn't set to False"]),
  );
  t.match(
    await patchAward(s, tender, award.id, { status: 'unsuccessful', qualified: false }),
    error(422, 'body', 'qualified', ["Can't update award to unsuccessful status when qualified/eligible isn't set to False"]),
  );
  t.match(
    await patchAward(s, tender, award.id, { status: 'active', qualified: true, eligible: false }),
    error(422, 'body', 'eligible', ["Can't update award to active status with not eligible"]),
  );
  t.equal((await read(s, tender)).awards[0].status, 'pending', 'nothing changed on refusal');

  const decided = await patchAward(s, tender, award.id, decision('active', true, true));
  t.equal(decided.status, 200, decided.text);
  // Five full calendar days from the next Kyiv midnight (confirm-qualification.http), across the end of summer time.
  t.match(decided.body.data, {
    status: 'active',
    complaintPeriod: { startDate: '2026-10-21T00:01:00+03:00', endDate: '2026-10-27T00:00:00+02:00' },
  });
  const standStillEnd = new Date('2026-10-27T00:00:00+02:00');
  const awarded = await read(s, tender);
  t.equal(awarded.status, 'active.awarded');
  t.same(
    (await s.request('GET', `/api/2.5/tenders/${tender.id}/awards/${award.id}/complaints`)).body,
    { data: [] },
    'award complaints are served',
  );
  const [contract] = awarded.contracts;
  t.equal(contract.status, 'pending');

  const early = await signContract(s, tender, contract.id, bids[1], 'broker2');
  t.match(
    early,
    error(403, 'body', 'data', `Can't sign contract before stand-still period end (${decided.body.data.complaintPeriod.endDate})`),
    'the stand-still holds the contract',
  );
  t.equal((await read(s, tender)).status, 'active.awarded');

  s.clock.set(new Date(standStillEnd.getTime() + 60_000));
  const signed = await signContract(s, tender, contract.id, bids[1], 'broker2');
  t.equal(signed.status, 200, signed.text);
  const done = await read(s, tender);
  t.equal(done.status, 'complete', 'the signed contract completes the tender');
  t.same(
    done.lots.map((l: any) => l.status),
    ['complete'],
  );
  t.notOk(done.next_check, 'nothing is left to check');

  const ocds = (await s.request('GET', `/api/2.5/tenders/${tender.id}?opt_schema=ocds`)).body;
  t.match(ocds.releases[0], {
    tender: { procurementMethod: 'open', procurementMethodDetails: 'aboveThreshold', status: 'complete' },
    awards: [{ status: 'active' }],
    contracts: [{ status: 'active' }],
  });
  const feed = (await s.request('GET', '/api/2.5/tenders?opt_fields=status,procurementMethodType')).body.data;
  t.match(feed, [{ id: tender.id, status: 'complete', procurementMethodType: 'aboveThreshold' }], 'the feed lists it');
});

t.test('a refused award: the next bid is awarded; all refused, the tender is unsuccessful after the stand-still', async (t) => {
  const s = await server(t);
  const tender = await tendering(s);
  const bids = [await placeBid(s, tender, 450, 1, 'broker1'), await placeBid(s, tender, 440, 2, 'broker2')];
  s.clock.set(new Date(Date.parse(TENDERING_END) + 60_000));
  await runChronograph(s, tender.id);
  await playAuction(
    { request: (method, path, body) => s.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const first = (await read(s, tender)).awards[0];
  t.equal((await patchAward(s, tender, first.id, decision('unsuccessful', false, true))).status, 200);
  const second = (await read(s, tender)).awards[1];
  t.match(second, { status: 'pending', bid_id: bids[0].id });
  t.equal((await patchAward(s, tender, second.id, decision('unsuccessful', false, true))).status, 200);
  const waiting = await read(s, tender);
  t.equal(waiting.status, 'active.awarded', 'no bid is left: awarding is over');
  t.equal(waiting.next_check, waiting.awards[1].complaintPeriod.endDate, 'the end of the stand-still is due');
  t.match(
    await s.request('POST', `/api/2.5/tenders/${tender.id}/cancellations`, {
      key: 'broker',
      token: tender.token,
      body: { data: { reason: 'x', reasonType: 'noDemand' } },
    }),
    error(403, 'body', 'data', "Can't perform cancellation if all awards are unsuccessful"),
  );
  s.clock.set(new Date(Date.parse(waiting.next_check) + 1000));
  await runChronograph(s, tender.id);
  t.equal((await read(s, tender)).status, 'unsuccessful');
});

t.test("cancellations: the reference's reasonTypes; a pending one cancels the tender after its complaint period", async (t) => {
  const s = await server(t);
  const tender = await tendering(s);
  await placeBid(s, tender, 450, 1, 'broker1');
  const path = `/api/2.5/tenders/${tender.id}/cancellations`;
  t.match(
    await s.request('POST', path, { key: 'broker', token: tender.token, body: { data: { reason: 'x', reasonType: 'noSuch' } } }),
    error(422, 'body', 'reasonType', ["Value must be one of ['noDemand', 'unFixable', 'forceMajeure', 'expensesCut', 'noOffer']"]),
  );
  const created = await postCancellation(s, tender, aCancellation({ reasonType: 'noOffer' }));
  t.equal(created.status, 201, created.text);
  const id = created.body.data.id;
  t.equal((await uploadCancellationDocument(s, tender, id)).status, 201);
  // With cancellation complaints it waits for its 10-day complaint period (docs/tenders.md §Complaints).
  const pending = await patchCancellation(s, tender, id, { status: 'pending' });
  t.equal(pending.status, 200, pending.text);
  t.equal((await read(s, tender)).next_check, pending.body.data.complaintPeriod.endDate);
  s.clock.set(new Date(Date.parse(pending.body.data.complaintPeriod.endDate) + 1000));
  await runChronograph(s, tender.id);
  const cancelled = await read(s, tender);
  t.equal(cancelled.status, 'cancelled');
  t.notOk(cancelled.next_check);
  t.same((await s.request('GET', `${path}/${id}/complaints`)).body, { data: [] }, 'the cancellation complaint list is served');
});

t.test('bids: level 4 only, within the tendering period', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'auth-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'auth.ini'), '[brokers]\nbroker = broker\nbroker2 = broker2,2\nbroker4 = broker4,4\n');
  const s = await startTestServer({ env: { AUTH_FILE: join(dir, 'auth.ini') } });
  t.teardown(() => s.close());
  const tender = await tendering(s);
  const bid = (key: string) => s.request('POST', `/api/2.5/tenders/${tender.id}/bids`, { key, body: { data: aBid(tender) } });
  t.match(await bid('broker2'), error(403, 'url', 'accreditation', 'Broker Accreditation level does not permit bid creation'));
  t.equal((await bid('broker4')).status, 201);
  s.clock.set(new Date(Date.parse(TENDERING_END) + 1000));
  t.match(
    await bid('broker4'),
    error(
      403,
      'body',
      'data',
      `Bid can be added only during the tendering period: from (2026-10-05T12:00:00+03:00) to (${TENDERING_END}).`,
    ),
  );
});
