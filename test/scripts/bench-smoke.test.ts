import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';

const ROOT = join(__dirname, '../..');

// Structure only: timings on a shared CI machine prove nothing, so no figure is asserted. The file gets the time its
// child process may take on a busy machine.
t.setTimeout(260_000);
t.test('bench in its smallest configuration → exit 0, Markdown and JSON tables for every size and scenario', (t) => {
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/bench/run.ts',
      '--ci',
      '--sizes',
      '50,100',
      '--frameworks',
      '5',
      // A count, not a time window: a busy machine makes the run slower, never emptier.
      '--requests',
      '40',
      '--connections',
      '2',
      '--out',
      out,
      '--name',
      'smoke',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
  );
  t.equal(run.status, 0, run.stderr.slice(-2000));
  if (run.status !== 0) return t.end();
  const report = JSON.parse(readFileSync(join(out, 'smoke.json'), 'utf8'));
  t.same(
    report.sizes.map((s: { size: number }) => s.size),
    [50, 100],
  );
  const scenarios = [
    'GET tender (public)',
    'GET tender (restricted, masked)',
    'GET tender (restricted, broker key)',
    'feed page of 100',
    'feed page of 100, descending',
    'GET framework',
    'frameworks feed page of 100',
  ];
  for (const size of [50, 100]) {
    t.same(
      report.reads.filter((r: { size: number }) => r.size === size).map((r: { scenario: string }) => r.scenario),
      scenarios,
      `every read scenario at ${size}`,
    );
  }
  for (const row of report.reads) {
    t.ok(row.product || row.note, `${row.scenario}: measured or says why not`);
    if (row.product) {
      t.ok(row.product.requests > 0 && row.product.p99 >= row.product.p50, `${row.scenario}: counts and percentiles`);
      t.ok(row.product.storageKiB >= 0, `${row.scenario}: storage reads per request`);
    }
  }
  t.ok(
    report.sizes.every((s: { rssMB: number }) => s.rssMB > 0),
    'node RSS at each size',
  );
  t.ok(
    report.sizes.every((s: { pageCacheMB: number }) => s.pageCacheMB > 0),
    'the page cache at each size',
  );
  t.same(report.writes.length, 5, 'create, patch, the framework chain, bid create and the lifecycle chain');
  const md = readFileSync(join(out, 'smoke.md'), 'utf8');
  for (const heading of ['## Reads', '## Latency by stored tenders', '## Sizes, memory and loading', '## Writes', '## Targets']) {
    t.match(md, heading);
  }
  t.end();
});
