/**
 * `npm run seed [-- --target URL] [--force] [--frameworks N] [--tenders N] [--plans N]`: fills a fresh registry with a demo
 * set through the HTTP API. Without `--target` it starts a node in-process on the configured STORE_URL, on a free
 * port, and stops it at the end. A store whose feeds already list objects is left alone unless `--force`.
 */
import { SingleBar, Presets } from 'cli-progress';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startNode } from '../../src/node';
import { systemClock } from '../../src/time/clock';
import { seed, seedSteps, tenderMix, type SeedPlan } from './demo-data';
import { acceptsSandboxDetails } from './timed-states';
import { request } from '../../test/fixtures/server';
import { parseCli } from '../cli';

const FEEDS = ['frameworks', 'tenders', 'submissions', 'agreements', 'contracts', 'plans'];

async function isEmpty(baseUrl: string): Promise<boolean> {
  for (const feed of FEEDS) {
    const page = (await (await fetch(`${baseUrl}/api/2.5/${feed}?mode=_all_&limit=1`)).json()) as { data: unknown[] };
    if (page.data.length) return false;
  }
  return true;
}

async function main() {
  const { values } = parseCli(
    `usage: npm run seed -- [--target URL] [--force] [--frameworks N] [--tenders N] [--plans N]

Fills a fresh store with demo objects through the API: frameworks with their submissions, qualifications and
agreements, tenders, and plans. Without --target it runs a node of its own, in SANDBOX_MODE, on STORE_URL (the
default SQLite file, which npm start may have open at the same time) and stops it at the end.

  --target URL      a running node's base URL instead (tenders past tendering only if it runs in SANDBOX_MODE)
  --force           add even when the store already lists objects
  --frameworks N    frameworks, each with three qualified suppliers and so an agreement (default 2)
  --tenders N       tenders in all (default 16), one of each kind first while they last: an active one, a
                    competitiveOrdering one per agreement, a cancelled one, a draft from every other plan, five
                    past tendering (unsuccessful, in auction, in qualification, awarded, complete; SANDBOX_MODE
                    only); the rest active and drafts, half each
  --plans N         plans (default 4)
  -h, --help        this text`,
    {
      target: { type: 'string' },
      force: { type: 'boolean', default: false },
      frameworks: { type: 'string', default: '2' },
      tenders: { type: 'string', default: '16' },
      plans: { type: 'string', default: '4' },
    },
  );
  const plan: SeedPlan = { frameworks: Number(values.frameworks), tenders: Number(values.tenders), plans: Number(values.plans) };
  // The in-process node is a sandbox, so the seed can take tenders through their periods in seconds.
  const env = { SANDBOX_MODE: 'true', ...process.env, PORT: '0', ROLE: 'api' };
  const config = loadConfig(env);
  const node = values.target ? null : await startNode(config, systemClock, pino({ level: 'warn' }));
  const baseUrl = values.target ?? node!.url!;
  try {
    if (!values.force && !(await isEmpty(baseUrl))) {
      process.stderr.write(`${baseUrl} already lists objects: seed fills only a fresh store (--force to add anyway)\n`);
      process.exitCode = 1;
      return;
    }
    plan.timed = await acceptsSandboxDetails((method, path, options) => request(baseUrl, method, `/api/2.5${path}`, options));
    if (!plan.timed)
      process.stderr.write(
        'the node is not in SANDBOX_MODE: no tenders past their tendering (unsuccessful, in auction, in qualification, awarded, complete)\n',
      );
    const bar = new SingleBar(
      { format: 'seed [{bar}] {value}/{total} requests', noTTYOutput: true, notTTYSchedule: 2000 },
      Presets.shades_classic,
    );
    bar.start(seedSteps(plan), 0);
    const result = await seed(baseUrl, plan, () => bar.increment());
    bar.stop();
    const mix = tenderMix(plan);
    const unlisted = mix.drafts + mix.fromPlans;
    // The in-process node is gone once this prints: name the store, and where npm start serves it.
    const where = values.target ?? `${config.storeUrl} (npm start serves it at http://${config.host}:${process.env.PORT || 8080}/api/2.5)`;
    process.stdout.write(
      `seeded ${where}: ${result.frameworks.length} frameworks, ${result.agreements.length} agreements, ` +
        `${result.tenders.length} tenders (${mix.active} active, ${mix.drafts} drafts, ${mix.competitiveOrdering} competitiveOrdering, ` +
        `${mix.fromPlans} drafts from plans, ${mix.cancelled} cancelled, ${mix.timed} past tendering; ` +
        `the feed lists ${result.tenders.length - unlisted}, no drafts), ${result.contracts.length} contracts, ${result.plans.length} plans\n`,
    );
  } finally {
    await node?.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
