import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';

const ROOT = join(__dirname, '../..');
const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

// Structure only: timings on a shared CI machine prove nothing, so no figure is asserted. Its requests are counted, so
// a busy machine makes it slower, never emptier: the file gets the time its child process may take.
t.setTimeout(320_000);
if (!url) {
  t.plan(0, 'MONGODB_URL (or a mongodb:// STORE_URL) not set');
} else {
  t.test('bench --store mongodb in its smallest configuration → exit 0, both engines measured on every scenario', (t) => {
    const out = mkdtempSync(join(tmpdir(), 'bench-engines-smoke-'));
    t.teardown(() => rmSync(out, { recursive: true, force: true }));
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/bench/run.ts',
        '--store',
        'mongodb',
        '--runner',
        'tsx',
        '--sizes',
        '50',
        '--frameworks',
        '2',
        // A count, not a time window: on a busy machine a 0.5 s window once held no answered create at all.
        '--requests',
        '20',
        '--warmup',
        '0',
        '--connections',
        '2',
        '--out',
        out,
        '--name',
        'smoke',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, MONGODB_URL: url } },
    );
    t.equal(run.status, 0, run.stderr.slice(-2000));
    if (run.status !== 0) return t.end();
    const report = JSON.parse(readFileSync(join(out, 'smoke.json'), 'utf8'));
    t.same(
      report.rows.map((r: { scenario: string }) => r.scenario),
      ['GET tender (public)', 'feed page of 100', 'POST tender (create)', 'PATCH tender (owner token)'],
    );
    for (const row of report.rows) {
      for (const engine of ['sqlite', 'mongodb', 'sqliteAtRate', 'sqliteAtRateBeside']) {
        t.ok(row[engine].requests > 0 && row[engine].p99 >= row[engine].p50, `${row.scenario} on ${engine}: counts and percentiles`);
        t.ok(row[engine].cpuUs > 0, `${row.scenario} on ${engine}: the app's CPU per request`);
      }
    }
    for (const engine of ['sqlite', 'mongodb'])
      t.ok(report.idleCpuUsPerSecond[engine] >= 0, `${engine}: the node's CPU a second while it served nothing`);
    const md = readFileSync(join(out, 'smoke.md'), 'utf8');
    t.match(md, '| Scenario | req/s SQLite | req/s MongoDB |');
    t.match(md, 'store server CPU (MongoDB)');
    t.match(md, '| Scenario | req/s (paced) | store server, cores |');
    t.match(md, /\| feed page of 100 \| -?[\d,]+ \| -?[\d,]+ \| -?[\d,]+ \| -?[\d.]+× /, 'the feed page net of idle work, on both engines');
    t.end();
  });
}
