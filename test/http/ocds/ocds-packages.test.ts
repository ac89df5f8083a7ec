import t from 'tap';
import type { Test } from 'tap';
import { playAuction } from '../../../scripts/auction/play-auction';
import { decision, patchAward, signContract } from '../../fixtures/awards';
import { activeTender, cancelBy } from '../../fixtures/cancellations';
import { ocdsSchemasPresent, ocdsSchemasSkip, releasePackageValidator } from '../../fixtures/ocds';
import { aPlan, createPlan } from '../../fixtures/plans';
import { startTestServer, type TestServer } from '../../fixtures/server';
import {
  aTender,
  belowThresholdConfig,
  CO_TENDERING_END,
  draftWithLots,
  LIFECYCLE_CASES,
  placeBid,
  runChronograph,
  tenderInTendering,
  TENDERING_END,
  type TenderingOptions,
} from '../../fixtures/tenders';

/**
 * Every tender, contract and plan the fixtures make, read as OCDS at every step of its life and validated against
 * the OCDS 1.1.5 release-package schema (docs/ocds.md), together with the feeds' OCDS pages.
 */
const skip = ocdsSchemasSkip;
const validate = ocdsSchemasPresent ? releasePackageValidator() : () => [];
const validateRecords = ocdsSchemasPresent ? releasePackageValidator('record-package-schema.json') : () => [];
let validated = 0;

const ocdsPath = (path: string) => `${path}${path.includes('?') ? '&' : '?'}opt_schema=ocds`;

/** Reads `path` as OCDS and asserts its package is valid; answers the package. */
async function validPackage(t: Test, server: TestServer, path: string): Promise<any> {
  const res = await server.request('GET', ocdsPath(path));
  t.equal(res.status, 200, `${path} answers OCDS`);
  t.same(validate(res.body), [], `${path} as OCDS is valid`);
  validated++;
  return res.body;
}

/**
 * Every page of a feed in OCDS, each valid, following `next_page` as a crawler does; answers the releases listed.
 * The page past the end lists no release, which no package may be (`releases` has `minItems: 1`): it is the end.
 */
async function validFeed(t: Test, server: TestServer, collection: string): Promise<any[]> {
  const releases: any[] = [];
  let path = ocdsPath(`/api/2.5/${collection}?limit=2`);
  for (;;) {
    const page = (await server.request('GET', path)).body;
    if (!page.releases.length) {
      t.equal(page.next_page.path, path, 'the page past the end lists no release and links to itself');
      return releases;
    }
    t.same(validate(page), [], `${path} as OCDS is valid`);
    validated++;
    releases.push(...page.releases);
    path = page.next_page.path;
  }
}

async function walk(t: Test, server: TestServer, options: TenderingOptions) {
  const co = options.procedure === 'competitiveOrdering';
  const draft = await draftWithLots(server, options);
  await validPackage(t, server, `/api/2.5/tenders/${draft.id}`);
  const tender = await tenderInTendering(server, options);
  const tenderPath = `/api/2.5/tenders/${tender.id}`;
  await validPackage(t, server, tenderPath);
  const bids = [await placeBid(server, tender, 450, 1, 'broker1'), await placeBid(server, tender, 440, 2, 'broker2')];
  await validPackage(t, server, tenderPath);
  server.clock.set(new Date((co ? CO_TENDERING_END : TENDERING_END).getTime() + 60_000));
  await runChronograph(server, tender.id);
  await validPackage(t, server, tenderPath);
  await playAuction(
    { request: (method, path, body) => server.request(method, path, { key: 'auction', body }), auctionBase: 'https://auction.example.org' },
    tender.id,
  );
  const qualifying = await validPackage(t, server, tenderPath);
  t.ok(
    qualifying.releases.every((r: any) => r.bids?.details.length === 2),
    'the bids are public after the auction',
  );
  const { data } = (await server.request('GET', tenderPath)).body;
  for (const award of data.awards) {
    const res = await patchAward(server, tender, award.id, decision('active', true, co));
    t.equal(res.status, 200, 'award active');
  }
  await validPackage(t, server, tenderPath);
  // competitiveOrdering signs only after the awards' stand-still (docs/tenders.md §Contracts of a tender).
  const awarded = (await server.request('GET', tenderPath)).body.data.awards;
  const standStill = Math.max(...awarded.map((a: any) => Date.parse(a.complaintPeriod?.endDate ?? 0)));
  server.clock.set(new Date(Math.max(server.clock.now().getTime(), standStill + 60_000)));
  const contracts = (await server.request('GET', `${tenderPath}/contracts`)).body.data;
  for (const contract of contracts) {
    await validPackage(t, server, `/api/2.5/contracts/${contract.id}`);
    const bid = bids.find((b) => data.awards.find((a: any) => a.id === contract.awardID).bid_id === b.id)!;
    const signed = await signContract(server, tender, contract.id, bid, bid === bids[0] ? 'broker1' : 'broker2');
    t.equal(signed.status, 200, 'contract signed');
    await validPackage(t, server, `/api/2.5/contracts/${contract.id}`);
  }
  const complete = await validPackage(t, server, tenderPath);
  t.ok(
    complete.releases.every((r: any) => r.tender.status === 'complete' && r.tag.includes('contract')),
    'a complete tender: every release complete, with its contract',
  );
  for (const path of [tenderPath, ...contracts.map((c: any) => `/api/2.5/contracts/${c.id}`)]) {
    const record = (await server.request('GET', `${path}?opt_schema=ocds-record`)).body;
    t.same(validateRecords(record), [], `${path} as an OCDS record package is valid`);
    validated++;
    for (const r of record.records) {
      t.equal(new Set(r.releases.map((release: any) => release.id)).size, r.releases.length, 'each revision once');
      t.same(r.compiledRelease.tag, ['compiled']);
    }
  }
  const record = (await server.request('GET', `${tenderPath}?opt_schema=ocds-record`)).body;
  t.equal(record.records.length, complete.releases.length, 'one record per contracting process');
  t.ok(record.records[0].releases.length >= 3, `${record.records[0].releases.length} revisions of the tender's first process`);
  t.notOk(record.records[0].releases[0].bids, 'the first revision, from before the bids were public, shows no bids');
}

for (const [name, options] of [
  ...LIFECYCLE_CASES,
  ['restricted competitiveOrdering with a lot', { procedure: 'competitiveOrdering', lots: 1, config: { restricted: true } }],
] as [string, TenderingOptions][]) {
  t.test(`${name}: every step's tender and contract, and the feeds, are valid OCDS`, { skip }, async (t) => {
    const server = await startTestServer();
    t.teardown(() => server.close());
    await walk(t, server, options);
    await validFeed(t, server, 'tenders');
    await validFeed(t, server, 'contracts');
  });
}

t.test('cancelled tenders and lots are valid OCDS, tagged tenderCancellation', { skip }, async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  for (const procedure of ['belowThreshold', 'competitiveOrdering'] as const) {
    for (const lots of [0, 1]) {
      const tender = await activeTender(server, procedure, lots);
      const res = await cancelBy(server, tender, procedure);
      t.equal(res.status, 200, `${procedure} with ${lots} lots cancelled`);
      const ocds = await validPackage(t, server, `/api/2.5/tenders/${tender.id}`);
      t.ok(
        ocds.releases.every((r: any) => r.tender.status === 'cancelled' && r.tag.includes('tenderCancellation')),
        'cancelled, and tagged so',
      );
    }
  }
  await validFeed(t, server, 'tenders');
});

t.test('plans, and a tender made from a plan, are valid OCDS; the tender carries the plan', { skip }, async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const plan = await createPlan(server);
  const planned = await validPackage(t, server, `/api/2.5/plans/${plan.id}`);
  t.match(planned.releases[0], { ocid: `ocds-be6bcu-${plan.id}`, tag: ['planning'], tender: { status: 'planned' } });
  const draft = await createPlan(server, aPlan({ status: 'draft' }));
  await validPackage(t, server, `/api/2.5/plans/${draft.id}`);
  const made = await server.request('POST', `/api/2.5/plans/${plan.id}/tenders`, {
    key: 'broker',
    body: { data: aTender(), config: belowThresholdConfig() },
  });
  t.equal(made.status, 201, 'tender made from the plan');
  const tender = await validPackage(t, server, `/api/2.5/tenders/${made.body.data.id}`);
  t.match(tender.releases[0], {
    tag: ['planning', 'tender'],
    planning: { budget: { id: '12303111000-2', amount: { amount: 10000, currency: 'UAH' }, projectID: '123', project: 'proj_name' } },
    relatedProcesses: [{ relationship: ['planning'], scheme: 'ocid', identifier: `ocds-be6bcu-${plan.id}` }],
  });
  await validPackage(t, server, `/api/2.5/plans/${plan.id}`);
  const feed = await validFeed(t, server, 'plans');
  t.equal(feed.length, 1, 'the plan feed lists the scheduled plan, not the draft');
});

t.test('packages validated', { skip }, async (t) => {
  t.ok(validated > 0, `${validated} packages validated against the OCDS 1.1.5 release-package and record-package schemas, 0 errors`);
});
