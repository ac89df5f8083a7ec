/**
 * `npm run seed [-- --target URL] [--force] [--frameworks N] [--tenders N]`: fills a fresh registry with a demo
 * set through the HTTP API. Without `--target` it starts a node in-process on the configured STORE_URL. A store
 * whose feeds already list objects is left alone unless `--force`.
 */
import { SingleBar, Presets } from 'cli-progress';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startNode } from '../../src/node';
import { systemClock } from '../../src/time/clock';
import { seed, seedSteps } from './demo-data';
import { parseCli } from '../cli';

const FEEDS = ['frameworks', 'tenders', 'submissions', 'agreements', 'contracts'];

async function isEmpty(baseUrl: string): Promise<boolean> {
  for (const feed of FEEDS) {
    const page = (await (await fetch(`${baseUrl}/api/2.5/${feed}?mode=_all_&limit=1`)).json()) as { data: unknown[] };
    if (page.data.length) return false;
  }
  return true;
}

async function main() {
  const { values } = parseCli(
    `usage: npm run seed -- [--target URL] [--force] [--frameworks N] [--tenders N]

Fills a fresh store with demo objects through the API: frameworks with their submissions, qualifications and
agreements, and tenders. Without --target it starts a node on STORE_URL (the default SQLite file).

  --target URL      a running node's base URL instead
  --force           add even when the store already lists objects
  --frameworks N    frameworks (default 2)
  --tenders N       tenders (default 6)
  -h, --help        this text`,
    {
      target: { type: 'string' },
      force: { type: 'boolean', default: false },
      frameworks: { type: 'string', default: '2' },
      tenders: { type: 'string', default: '6' },
    },
  );
  const plan = { frameworks: Number(values.frameworks), tenders: Number(values.tenders) };
  const node = values.target ? null : await startNode(loadConfig({ ...process.env, PORT: '0', ROLE: 'api' }), systemClock, pino({ level: 'warn' }));
  const baseUrl = values.target ?? node!.url!;
  try {
    if (!values.force && !(await isEmpty(baseUrl))) {
      process.stderr.write(`${baseUrl} already lists objects: seed fills only a fresh store (--force to add anyway)\n`);
      process.exitCode = 1;
      return;
    }
    const bar = new SingleBar({ format: 'seed [{bar}] {value}/{total} requests', noTTYOutput: true, notTTYSchedule: 2000 }, Presets.shades_classic);
    bar.start(seedSteps(plan), 0);
    const result = await seed(baseUrl, plan, () => bar.increment());
    bar.stop();
    process.stdout.write(
      `seeded ${baseUrl}: ${result.frameworks.length} frameworks, ${result.agreements.length} agreements, ` +
        `${result.tenders.length} tenders, ${result.contracts.length} contracts\n`,
    );
  } finally {
    await node?.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
