import t from 'tap';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open-store';
import { startTestServer } from '../fixtures/server';

const ROOT = join(__dirname, '../..');

function runSeed(args: string[], env: Record<string, string> = {}, root = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const options = { cwd: root, env: { ...process.env, ...env } };
    execFile(join(ROOT, 'node_modules/.bin/tsx'), [join(root, 'scripts/seed/main.ts'), ...args], options, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

t.test('npm run seed fills a fresh store through the API, then refuses to seed it again without --force', async (t) => {
  const server = await startTestServer({ now: new Date() });
  t.teardown(() => server.close());
  const first = await runSeed(['--target', server.url, '--frameworks', '2', '--tenders', '5', '--plans', '2']);
  t.equal(first.code, 0, 'seeded');
  t.match(first.stderr, /seed \[.*\] 43\/43 requests/, 'progress line');
  t.equal(
    first.stdout.trim().split('\n').at(-1),
    `seeded ${server.url}: 2 frameworks, 2 agreements, 5 tenders (1 active, 0 drafts, 2 competitiveOrdering, 1 drafts from plans, ` +
      '1 cancelled, 0 past tendering; the feed lists 4, no drafts), 1 contracts, 2 plans',
  );

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

t.test('npm run seed from a bare clone (nothing beside it) on its own sandbox node: tenders past their periods too', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-seed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The repository's files alone, in a folder with no reference recordings beside it.
  const clone = join(dir, 'clone');
  for (const part of ['src', 'scripts', 'test', 'cluster', 'auth.ini', 'package.json', 'tsconfig.json'])
    cpSync(join(ROOT, part), join(clone, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  const storeUrl = `sqlite:${join(dir, 'registry.db')}`;
  const run = await runSeed(['--frameworks', '1', '--tenders', '8', '--plans', '0'], { STORE_URL: storeUrl }, clone);
  t.equal(run.code, 0, run.stderr);
  t.equal(
    run.stdout.trim().split('\n').at(-1),
    `seeded ${storeUrl} (npm start serves it at http://127.0.0.1:8080/api/2.5): 1 frameworks, 1 agreements, 8 tenders (1 active, ` +
      '0 drafts, 1 competitiveOrdering, 0 drafts from plans, 1 cancelled, 5 past tendering; the feed lists 8, no drafts), 1 contracts, 0 plans',
  );
  const store = await openStore(storeUrl, {});
  t.teardown(() => store.close());
  const tenders = await store.session().feed({ kind: 'tenders', descending: false, limit: 100, mode: 'all' });
  const statuses = tenders.map((x) => (x.doc.data as { status: string }).status).sort();
  t.same(statuses, [
    'active.auction',
    'active.awarded',
    'active.enquiries',
    'active.qualification',
    'active.tendering',
    'cancelled',
    'complete',
    'unsuccessful',
  ]);
  const co = tenders.find((x) => (x.doc.data as { status: string }).status === 'active.tendering')!;
  t.equal((co.doc as { sealedBids?: unknown[] }).sealedBids?.length, 2, 'tendering with two (sealed) bids');
});
