import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decision, patchAward, signContract, tenderInQualification } from '../fixtures/awards';
import { activeTender, cancelBy } from '../fixtures/cancellations';
import { OCDS_SCHEMAS, ocdsSchemasSkip, releasePackageValidator } from '../fixtures/ocds';
import { startTestServer, type TestServer } from '../fixtures/server';

/**
 * kingfisher-collect's `ukraine` spider (not on PyPI, so replayed here): it asks the tenders feed from an ISO
 * date-time `offset`, asks every listed tender at the feed's own address plus `/{id}?opt_schema=ocds` as a release
 * package, and follows `next_page.uri` until a page repeats. The packages it collects then go to `ocdskit compile`
 * (scripts/ocdskit-compile.sh) when ocdskit is installed (docs/ocds.md §Feeds).
 */
const ROOT = join(__dirname, '../..');
const OCDSKIT_VENV = process.env.OCDSKIT_VENV ?? join(ROOT, 'data/ocdskit-venv');
// CI installs it (.ci/run); a plain `npm test` without it skips the compile and says so in tap's summary.
const OCDSKIT_SKIP = existsSync(join(OCDSKIT_VENV, 'bin/ocdskit'))
  ? false
  : `ocdskit is not installed in ${process.env.OCDSKIT_VENV ?? 'data/ocdskit-venv'} (scripts/ocdskit-compile.sh --install)`;

/** Tenders in two states: cancelled (one lot), and complete with two lots and their signed contracts. */
async function someTenders(server: TestServer): Promise<number> {
  await cancelBy(server, await activeTender(server, 'competitiveOrdering', 1), 'competitiveOrdering');
  const { tender, bids, data } = await tenderInQualification(server, { lots: 2 });
  for (const award of data.awards) await patchAward(server, tender, award.id, decision('active', true, false));
  const contracts = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data;
  for (const contract of contracts) await signContract(server, tender, contract.id, bids[1], 'broker2');
  return 2;
}

t.test("the ukraine spider's requests collect a valid release package of every tender", { skip: ocdsSchemasSkip }, async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const tenders = await someTenders(server);
  const validate = releasePackageValidator();
  const packages: any[] = [];
  const asked = new Set<string>();
  let url = `${server.url}/api/2.5/tenders?offset=2016-01-01T00:00:00`;
  while (!asked.has(url)) {
    asked.add(url);
    const list: any = await (await fetch(url)).json();
    for (const item of list.data) {
      const address = new URL(url);
      address.searchParams.delete('offset');
      address.pathname += `/${item.id}`;
      const res = await fetch(`${address.toString().replace(/\?$/, '')}?opt_schema=ocds`);
      t.equal(res.status, 200);
      packages.push(await res.json());
    }
    url = list.next_page.uri;
  }
  t.equal(packages.length, tenders, 'every tender once');
  t.same(
    packages.flatMap((p) => validate(p)),
    [],
    `${packages.length} packages valid`,
  );
  const ocids = new Set(packages.flatMap((p) => p.releases.map((r: any) => r.ocid)));
  t.equal(ocids.size, 3, 'three contracting processes: a cancelled lot, two lots');
  // Beyond the spider: the contracts' own packages, which belong to their tenders' processes.
  const contracts = ((await (await fetch(`${server.url}/api/2.5/contracts?opt_schema=ocds`)).json()) as any).releases;
  t.equal(contracts.length, 2);
  t.ok(
    contracts.every((r: any) => ocids.has(r.ocid)),
    "each contract's release is in its tender's process",
  );
  packages.push(...contracts.map((release: any) => ({ ...packages[0], releases: [release] })));

  t.test('ocdskit compile merges them: one compiled release per ocid', { skip: OCDSKIT_SKIP }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ocdskit-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'packages.json');
    writeFileSync(file, packages.map((p) => JSON.stringify(p)).join('\n'));
    const out = execFileSync(join(ROOT, 'scripts/ocdskit-compile.sh'), [join(OCDS_SCHEMAS, 'release-schema.json'), file], {
      env: { ...process.env, OCDSKIT_VENV },
      encoding: 'utf8',
    });
    t.equal(out.trim(), `${ocids.size} compiled releases`);
  });
});
