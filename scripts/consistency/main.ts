import { formatFeedSummary, runFeedCheck } from './feed-check';
import { runConsistencyCheck } from './check-run';
import { formatSummary, passed } from './summary';
import { parseCli } from '../cli';
import { NEMESES, parseNemeses } from './nemesis';

const USAGE = `
usage: npm run consistency -- --targets URL1,URL2,... [--clients N] [--seconds S] [--operations N] [--history FILE]
       npm run consistency -- --kill-node [--nodes N] [--clients N] [--seconds S] [--history FILE]
       npm run consistency -- --nemesis pause,kill,restart,partition,clock [--nodes N] [--clients N] [--history FILE]
       npm run consistency -- --feed [--targets URL,...] [--writers N] [--crawlers N] [--kill-node | --nemesis A,B]

Simulated clients write and read through the given nodes (or a local cluster it starts, on STORE_URL when set,
killing one node mid-run with --kill-node) and check every session guarantee. Exits 1 on violations.
With --feed, writers PATCH frameworks through every node while crawlers follow the paged feed and the live feed
from random offsets; every acknowledged change is checked against every crawler. Exits 1 if one missed any.

  --targets URL,...   API nodes' base URLs (e.g. http://127.0.0.1:8081)
  --clients N         simulated clients (default 16)
  --seconds S         how long to run (default 20)
  --operations N      stop after N operations instead
  --kill-node         start a local cluster and kill -9 one node mid-run
  --nemesis A,B,...   start a local cluster and compose these faults, in this order, each in its own slot of the run,
                      while the clients (or --feed's writers and crawlers) run through every node; each fault is held
                      past the membership TTL (1.5 s), then healed, and reported with the time until every node
                      served a new session again; the run fails on a violation, a missed change, a 5xx other than
                      the documented 503, or a node not serving 60 s after a heal:
${Object.entries(NEMESES)
  .map(([name, text]) => wrap(`${name.padEnd(10)}${text}`, 24, 10))
  .join('\n')}
  --nodes N           nodes of that local cluster (default 3)
  --history FILE      record the run's history there in Elle's list-append format (JSON lines) and check it with
                      adya too (cargo install adya), for causal consistency; both checkers must pass
  --feed              the feed-completeness check instead (a local cluster unless --targets)
  --writers N         --feed: writers, each PATCHing two frameworks (default 8)
  --crawlers N        --feed: paged crawlers, and as many live-feed crawlers (default 4)
  -h, --help          this text
`;

/** `text` in lines of at most 118 columns, indented by `indent`, continuation lines by `hanging` more. */
function wrap(text: string, indent: number, hanging: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ (?=\S)/)) {
    const width = 118 - indent - (lines.length ? hanging : 0);
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word.trimStart();
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l, i) => ' '.repeat(indent + (i ? hanging : 0)) + l).join('\n');
}

async function main() {
  const { values } = parseCli(USAGE, {
    targets: { type: 'string' },
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '20' },
    operations: { type: 'string' },
    'kill-node': { type: 'boolean', default: false },
    nemesis: { type: 'string' },
    nodes: { type: 'string', default: '3' },
    feed: { type: 'boolean', default: false },
    writers: { type: 'string', default: '8' },
    crawlers: { type: 'string', default: '4' },
    history: { type: 'string' },
  });
  const targets = (values.targets ?? '')
    .split(',')
    .map((t) => t.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  const clients = Number(values.clients);
  const seconds = Number(values.seconds);
  const nemesis = values.nemesis === undefined ? undefined : parseNemeses(values.nemesis);
  const storePid = process.env.STORE_PID ? Number(process.env.STORE_PID) : undefined;
  if (values.feed) {
    const feed = await runFeedCheck({
      targets,
      writers: Number(values.writers),
      crawlers: Number(values.crawlers),
      seconds,
      killNode: values['kill-node'],
      nodes: Number(values.nodes),
      storeUrl: process.env.STORE_URL || undefined,
      nemesis,
      storePid,
      progress: (line) => console.error(line),
    });
    const report = formatFeedSummary(feed);
    console.log(report);
    process.exit(report.endsWith('PASS') ? 0 : 1);
  }
  if (!targets.length && !values['kill-node'] && !nemesis?.length)
    throw new Error('--targets URL1,URL2,… is required (or --kill-node or --nemesis to start a local cluster)');
  if (!Number.isInteger(clients) || clients < 1) throw new Error('--clients must be a positive integer');
  if (!(seconds > 0)) throw new Error('--seconds must be positive');
  const operations = values.operations === undefined ? undefined : Number(values.operations);
  if (operations !== undefined && !(Number.isInteger(operations) && operations > 0))
    throw new Error('--operations must be a positive integer');
  const summary = await runConsistencyCheck({
    targets,
    clients,
    seconds,
    operations,
    killNode: values['kill-node'],
    nodes: Number(values.nodes),
    storeUrl: process.env.STORE_URL || undefined,
    historyPath: values.history,
    nemesis,
    storePid,
    progress: (line) => console.error(line),
  });
  console.log(formatSummary(summary));
  process.exit(passed(summary) ? 0 : 1);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
