import { parseArgs } from 'node:util';
import { runConsistencyCheck } from './run-check';
import { formatSummary, passed } from './summary';

/**
 * `npm run consistency -- --targets URL1,URL2,URL3 [--clients N] [--seconds S] [--operations N]`, or
 * `npm run consistency -- --kill-node [--nodes N]` on a local cluster it starts (on STORE_URL when set);
 * exits 1 on violations.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      targets: { type: 'string' },
      clients: { type: 'string', default: '16' },
      seconds: { type: 'string', default: '20' },
      operations: { type: 'string' },
      'kill-node': { type: 'boolean', default: false },
      nodes: { type: 'string', default: '3' },
    },
  });
  const targets = (values.targets ?? '').split(',').map((t) => t.trim().replace(/\/+$/, '')).filter(Boolean);
  const clients = Number(values.clients);
  const seconds = Number(values.seconds);
  if (!targets.length && !values['kill-node']) throw new Error('--targets URL1,URL2,… is required (or --kill-node to start a local cluster)');
  if (!Number.isInteger(clients) || clients < 1) throw new Error('--clients must be a positive integer');
  if (!(seconds > 0)) throw new Error('--seconds must be positive');
  const operations = values.operations === undefined ? undefined : Number(values.operations);
  if (operations !== undefined && !(Number.isInteger(operations) && operations > 0)) throw new Error('--operations must be a positive integer');
  const summary = await runConsistencyCheck({
    targets,
    clients,
    seconds,
    operations,
    killNode: values['kill-node'],
    nodes: Number(values.nodes),
    storeUrl: process.env.STORE_URL || undefined,
    progress: (line) => console.error(line),
  });
  console.log(formatSummary(summary));
  process.exit(passed(summary) ? 0 : 1);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
