import { parseArgs } from 'node:util';
import { runConsistencyCheck } from './run-check';
import { formatSummary, passed } from './summary';

/** `npm run consistency -- --targets URL1,URL2,URL3 [--clients N] [--seconds S] [--kill-node]`; exits 1 on violations. */
async function main() {
  const { values } = parseArgs({
    options: {
      targets: { type: 'string' },
      clients: { type: 'string', default: '16' },
      seconds: { type: 'string', default: '20' },
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
  const summary = await runConsistencyCheck({
    targets,
    clients,
    seconds,
    killNode: values['kill-node'],
    nodes: Number(values.nodes),
    progress: (line) => console.error(line),
  });
  console.log(formatSummary(summary));
  process.exit(passed(summary) ? 0 : 1);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
