import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open-store';
import { startTestServer } from '../fixtures/server';

const ROOT = join(__dirname, '../..');

function runSeed(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const options = { cwd: ROOT, env: { ...process.env, ...env } };
    execFile(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/seed/main.ts'), ...args], options, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

t.test('npm run seed fills a fresh store through the API, then refuses to seed it again without --force', async (t) => {
  const server = await startTestServer({ now: new Date() });
  t.teardown(() => server.close());
  const first = await runSeed(['--target', server.url, '--frameworks', '2', '--tenders', '2', '--plans', '2']);
  t.equal(first.code, 0, 'seeded');
  t.match(first.stderr, /seed \[.*\] 44\/44 requests/, 'progress line');
  t.match(first.stdout, /2 frameworks, 2 agreements, 6 tenders, 1 contracts, 2 plans, 1 cancelled/);

  const count = async (feed: string) => (await server.request('GET', `/api/2.5/${feed}?mode=_all_`, { key: 'brokerr' })).body.data.length;
  t.equal(await count('frameworks'), 2);
  t.equal(await count('agreements'), 2);
  t.equal(await count('qualifications'), 6);
  t.equal(await count('contracts'), 1);
  const plans = (await server.request('GET', '/api/2.5/plans?opt_fields=status')).body.data;
  t.same(plans.map((p: { status: string }) => p.status).sort(), ['complete', 'scheduled'], 'one plan has its tender, one waits');
  const tenders = (await server.request('GET', '/api/2.5/tenders?mode=_all_&opt_fields=procurementMethodType,status')).body.data;
  t.same(tenders.map((x: { procurementMethodType: string }) => x.procurementMethodType).sort(), [
    'belowThreshold',
    'belowThreshold',
    'competitiveOrdering',
    'competitiveOrdering',
  ]);
  t.equal(tenders.filter((x: { status: string }) => x.status === 'cancelled').length, 1, 'a cancelled tender');

  const again = await runSeed(['--target', server.url]);
  t.equal(again.code, 1);
  t.match(again.stderr, /already lists objects/);
});

t.test('npm run seed on its own sandbox node also takes tenders through their periods in seconds', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-seed-'));
  const storeUrl = `sqlite:${join(dir, 'registry.db')}`;
  const run = await runSeed(['--frameworks', '1', '--tenders', '0'], { STORE_URL: storeUrl });
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /1 cancelled, 5 past tendering/);
  const store = await openStore(storeUrl, {});
  t.teardown(() => store.close());
  const tenders = await store.session().feed({ kind: 'tenders', descending: false, limit: 100, mode: 'all' });
  const statuses = tenders.map((x) => (x.doc.data as { status: string }).status).sort();
  t.same(statuses, [
    'active.auction',
    'active.awarded',
    'active.qualification',
    'active.tendering',
    'cancelled',
    'complete',
    'unsuccessful',
  ]);
  const co = tenders.find((x) => (x.doc.data as { status: string }).status === 'active.tendering')!;
  t.equal((co.doc as { sealedBids?: unknown[] }).sealedBids?.length, 2, 'tendering with two (sealed) bids');
});
