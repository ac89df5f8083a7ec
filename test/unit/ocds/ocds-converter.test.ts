import t from 'tap';
import { contractRelease } from '../../../src/ocds/contract-release';
import { wantsOcds } from '../../../src/ocds/ocds-option';
import { Parties } from '../../../src/ocds/parties';
import { documentsOf, valueOf } from '../../../src/ocds/parts';
import { planRelease } from '../../../src/ocds/plan-release';
import { prune } from '../../../src/ocds/prune';
import { SplicedJson } from '../../../src/http/spliced-json';
import { recordPackageJson } from '../../../src/ocds/record-package';
import { eachRelease } from '../../../src/ocds/release-package';
import { tenderReleases as releasesOf } from '../../../src/ocds/tender-release';

const HIDDEN = 'Приховано';
/** The releases as JSON, read member by member below. */
const tenderReleases = (tender: Record<string, unknown>) => [...releasesOf(tender)] as any[];
const org = (id: string, name = `Org ${id}`) => ({ name, identifier: { scheme: 'UA-EDR', id } });
const tender = (overrides: Record<string, unknown> = {}) => ({
  id: 't'.repeat(32),
  title: 'Tender',
  status: 'active.qualification',
  procuringEntity: org('00037256'),
  items: [{ id: 'i1', description: 'item', relatedLot: 'L1' }],
  lots: [{ id: 'L1', title: 'Lot', status: 'active', value: { amount: 0, currency: 'UAH' } }],
  dateModified: '2026-10-05T12:00:00+03:00',
  ...overrides,
});

t.test('opt_schema: a value containing "ocds" in any case; the last one given counts', async (t) => {
  t.ok(wantsOcds({ opt_schema: 'OCDS-1.1' }));
  t.ok(wantsOcds({ opt_schema: ['json', 'ocds'] }));
  t.notOk(wantsOcds({ opt_schema: 'json' }));
  t.notOk(wantsOcds({}));
});

t.test('prune leaves out null, empty strings, and objects and arrays that end up empty, at every depth', async (t) => {
  t.same(prune({ a: null, b: '', c: { d: undefined, e: [] }, f: [{ g: '' }], h: 0, i: false }), { f: [{}], h: 0, i: false });
});

t.test('a value of 0 keeps only its currency (no value estimation)', async (t) => {
  t.same(valueOf({ amount: 0, currency: 'UAH' }), { currency: 'UAH' });
});

t.test('documents: the latest version of each, no buyerOnly, a hidden url left out', async (t) => {
  const documents = documentsOf([
    { id: 'd', title: 'old', url: 'https://ds/1', dateModified: '2026-10-01T00:00:00+03:00', format: 'a/b' },
    { id: 'd', title: 'new', url: HIDDEN, dateModified: '2026-10-02T00:00:00+03:00', format: 'a/b' },
    { id: 'x', confidentiality: 'buyerOnly', dateModified: '2026-10-02T00:00:00+03:00' },
  ]);
  t.same(prune(documents), [{ id: 'd', title: 'new', dateModified: '2026-10-02T00:00:00+03:00', format: 'a/b' }]);
});

t.test('parties: one per identifier with every role; hidden identifiers are named by what they belong to', async (t) => {
  const parties = new Parties();
  t.same(parties.add(org('1'), 'tenderer', 'bid-a'), { id: 'UA-EDR 1', name: 'Org 1' });
  parties.add(org('1'), 'supplier', 'award-a');
  t.same(parties.add(org(HIDDEN, HIDDEN), 'tenderer', 'bid-b'), { id: 'bid-b', name: HIDDEN });
  parties.add(org(HIDDEN, HIDDEN), 'tenderer', 'bid-c');
  t.same(
    parties.list().map((p) => [p.id, p.roles]),
    [
      ['UA-EDR 1', ['tenderer', 'supplier']],
      ['bid-b', ['tenderer']],
      ['bid-c', ['tenderer']],
    ],
  );
});

t.test('tender status: outside the closed list it is active; a cancelled tender is cancelled in every lot', async (t) => {
  t.equal(tenderReleases(tender())[0].tender.status, 'active');
  t.equal(tenderReleases(tender({ status: 'cancelled' }))[0].tender.status, 'cancelled');
  t.equal(tenderReleases(tender({ lots: [{ id: 'L1', title: 'Lot', status: 'unsuccessful' }] }))[0].tender.status, 'unsuccessful');
  t.equal(tenderReleases(tender({ status: 'active.awarded', lots: undefined }))[0].tender.status, 'active');
});

t.test('award criteria: the reference keeps its list, anything else is ratedCriteria', async (t) => {
  t.equal(tenderReleases(tender({ awardCriteria: 'lowestCost' }))[0].tender.awardCriteria, 'lowestCost');
  t.equal(tenderReleases(tender({ awardCriteria: 'lifeCycleCost' }))[0].tender.awardCriteria, 'ratedCriteria');
});

t.test("bids: the lot's value and date; active valid, invalid disqualified, deleted withdrawn, others pending", async (t) => {
  const bids = ['active', 'invalid', 'deleted', 'pending'].map((status, n) => ({
    id: `b${n}`,
    status,
    tenderers: [org(`${n}`)],
    lotValues: [{ relatedLot: 'L1', value: { amount: 10 + n, currency: 'UAH' }, date: `2026-10-0${n + 1}T00:00:00+03:00` }],
  }));
  const [release] = tenderReleases(tender({ bids }));
  t.same(
    release.bids.details.map((b: any) => [b.status, b.value.amount, b.tenderers[0].id]),
    [
      ['valid', 10, 'UA-EDR 0'],
      ['disqualified', 11, 'UA-EDR 1'],
      ['withdrawn', 12, 'UA-EDR 2'],
      ['pending', 13, 'UA-EDR 3'],
    ],
  );
  t.equal(release.bids.statistics[0].date, '2026-10-04T00:00:00+03:00');
  t.equal(release.tender.numberOfTenderers, 4);
});

t.test("a contract's release is in its tender's lot process, tagged by what happened to it", async (t) => {
  const release = contractRelease({
    id: 'c'.repeat(32),
    tender_id: 't'.repeat(32),
    awardID: 'a',
    status: 'terminated',
    buyer: org('00037256'),
    suppliers: [org('1')],
    items: [{ id: 'i1', description: 'item', relatedLot: 'L1' }],
    changes: [{ id: 'ch', status: 'active', rationale: 'why', dateSigned: '2026-10-03T00:00:00+03:00' }],
    dateModified: '2026-10-05T12:00:00+03:00',
  });
  t.match(release, {
    ocid: `ocds-be6bcu-${'t'.repeat(32)}-L1`,
    id: `${'c'.repeat(32)}-2026-10-05T12:00:00+03:00`,
    tag: ['contract', 'contractAmendment', 'contractTermination'],
    contracts: [{ amendments: [{ id: 'ch', rationale: 'why' }] }],
  });
});

t.test('a plan: its own process; draft planning, scheduled and complete planned, cancelled cancelled', async (t) => {
  const plan = (status: string) =>
    planRelease({ id: 'p'.repeat(32), status, procuringEntity: org('1'), buyers: [org('2')], dateModified: '2026-10-05T12:00:00+03:00' });
  t.same(
    ['draft', 'scheduled', 'complete', 'cancelled'].map((s) => plan(s).tender.status),
    ['planning', 'planned', 'planned', 'cancelled'],
  );
  t.match(plan('scheduled'), { ocid: `ocds-be6bcu-${'p'.repeat(32)}`, tag: ['planning'], buyer: { id: 'UA-EDR 2' } });
});

t.test(
  'a record package: one record per ocid, a repeated release id kept once (the last), sorted by date, the latest compiled',
  async (t) => {
    const release = (ocid: string, id: string, date: string, title: string) => ({
      ocid,
      id,
      date,
      tag: ['tender'],
      initiationType: 'tender',
      tender: { title },
    });
    const releases = [
      release('o1', 'a', '2026-10-01T00:00:00+03:00', 'first'),
      release('o1', 'a', '2026-10-01T00:00:00+03:00', 'first again'),
      release('o2', 'b', '2026-10-01T00:00:00+03:00', 'other'),
      release('o1', 'c', '2026-10-02T00:00:00+03:00', 'second'),
    ];
    const head = { uri: 'https://r/x', publisher: { name: 'p' }, now: '2026-10-05T00:00:00+03:00' };
    const text = await recordPackageJson(
      new SplicedJson(undefined),
      head,
      eachRelease(releases, async (view) => [view]),
    );
    const parts: Buffer[] = [];
    for await (const part of text.parts()) parts.push(part);
    const pkg = JSON.parse(Buffer.concat(parts).toString());
    t.notOk(pkg.releases);
    t.same(
      pkg.records.map((r: any) => [r.ocid, r.releases.map((x: any) => x.tender.title)]),
      [
        ['o1', ['first again', 'second']],
        ['o2', ['other']],
      ],
    );
    t.match(pkg.records[0].compiledRelease, { id: 'o1-2026-10-02T00:00:00+03:00', tag: ['compiled'], tender: { title: 'second' } });
    t.equal(pkg.publishedDate, '2026-10-02T00:00:00+03:00');
  },
);
