import t from 'tap';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { startTestServer } from '../fixtures/server';

const ROOT = join(__dirname, '../..');

function runSeed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/seed/main.ts'), ...args], { cwd: ROOT }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

t.test('npm run seed fills a fresh store through the API, then refuses to seed it again without --force', async (t) => {
  const server = await startTestServer({ now: new Date() });
  t.teardown(() => server.close());
  const first = await runSeed(['--target', server.url, '--frameworks', '2', '--tenders', '2', '--plans', '2']);
  t.equal(first.code, 0, 'seeded');
  t.match(first.stderr, /seed \[.*\] 35\/35 requests/, 'progress line');
  t.match(first.stdout, /2 frameworks, 2 agreements, 5 tenders, 1 contracts, 2 plans/);

  const count = async (feed: string) => (await server.request('GET', `/api/2.5/${feed}?mode=_all_`, { key: 'brokerr' })).body.data.length;
  t.equal(await count('frameworks'), 2);
  t.equal(await count('agreements'), 2);
  t.equal(await count('qualifications'), 6);
  t.equal(await count('contracts'), 1);
  const plans = (await server.request('GET', '/api/2.5/plans?opt_fields=status')).body.data;
  t.same(plans.map((p: { status: string }) => p.status).sort(), ['complete', 'scheduled'], 'one plan has its tender, one waits');
  const tenders = (await server.request('GET', '/api/2.5/tenders?mode=_all_&opt_fields=procurementMethodType,status')).body.data;
  t.same(tenders.map((x: { procurementMethodType: string }) => x.procurementMethodType).sort(), ['belowThreshold', 'competitiveOrdering', 'competitiveOrdering']);

  const again = await runSeed(['--target', server.url]);
  t.equal(again.code, 1);
  t.match(again.stderr, /already lists objects/);
});
