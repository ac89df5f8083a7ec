/**
 * `npm run migrate -- --from URL --to URL [--verify] [--dry-run]`: copies one store into another, SQLite or MongoDB
 * either way, through the store port (docs/operations.md §Migration): every object with its revision and feed
 * position, the documents' files, the counters. Run it again after an interruption: it finishes what is missing.
 */
import { SingleBar, Presets } from 'cli-progress';
import { existsSync } from 'node:fs';
import { KINDS, type Kind, type Store } from '../../src/store/port';
import { openStore } from '../../src/store/open-store';
import { parseCli } from '../cli';
import { copyStore, type CopyReport } from './copy-store';
import { verifyStores } from './verify-stores';

const USAGE = `
usage: npm run migrate -- --from STORE_URL --to STORE_URL [--verify] [--dry-run] [--batch N] [--no-progress]

  --from        the store to copy: sqlite:PATH (the file must exist) or mongodb://…
  --to          the store to copy into (created if it is a new SQLite file or MongoDB database)
  --verify      then compare both stores object by object; exit 1 if anything differs
  --dry-run     write nothing: count what a copy would put (with --verify, compare as things are)
  --batch N     objects per read and per write (default 500)
  --no-progress no progress bar (for logs)

Stop the source's writers first (or copy once live and again once they are stopped: the second run puts only what
changed). The copy is idempotent: interrupted, run it again.`;

/** The most the end of a copy into MongoDB waits for the wall clock to pass the last position copied. */
const MAX_CLOCK_WAIT_MS = 60_000;

const { values } = parseCli(USAGE, {
  from: { type: 'string' },
  to: { type: 'string' },
  verify: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  batch: { type: 'string', default: '500' },
  'no-progress': { type: 'boolean', default: false },
});

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE.trim()}\n`);
  process.exit(2);
}

const batch = Number(values.batch);
if (!values.from || !values.to) fail('--from and --to are required');
if (!Number.isInteger(batch) || batch < 1) fail(`--batch must be a positive integer, not ${values.batch}`);
if (values.from === values.to) fail('--from and --to name the same store');
if (values.from.startsWith('sqlite:') && !existsSync(values.from.slice('sqlite:'.length))) fail(`no such file: ${values.from}`);

const table = (rows: (string | number)[][]) => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((cell, i) => (i ? String(cell).padStart(widths[i]) : String(cell).padEnd(widths[i]))).join('  ')).join('\n');
};

function printCopy(report: CopyReport, dryRun: boolean, seconds: number) {
  const rows: (string | number)[][] = [['', 'source', dryRun ? 'would copy' : 'copied', 'already there']];
  for (const what of [...KINDS, 'blobs', 'counters'] as const) {
    const { read, put } = report[what];
    rows.push([what, read, put, read - put]);
  }
  const objects = KINDS.reduce((sum, kind) => sum + report[kind].read, 0);
  console.log(table(rows));
  console.log(`${objects} objects in ${seconds.toFixed(1)} s: ${Math.round(objects / Math.max(seconds, 0.001))} objects/s`);
}

/**
 * A MongoDB store's nodes take positions from their wall clocks (docs/mongodb.md §Feed ordering on MongoDB):
 * the copy ends once the clock here has passed the last position it copied, so a node started afterwards on a clock
 * in step with this one stamps after every copied object.
 */
async function waitForClock(to: Store, lastPosition: number) {
  const wait = lastPosition * 1000 - Date.now();
  if (to.engine !== 'mongodb' || wait <= 0) return;
  if (wait > MAX_CLOCK_WAIT_MS) {
    console.warn(
      `the last position copied is ${Math.round(wait / 1000)} s ahead of this clock: start no node before ${new Date(lastPosition * 1000).toISOString()}`,
    );
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, wait + 1));
}

async function main() {
  const dryRun = values['dry-run'];
  const from = await openStore(values.from!);
  const to = await openStore(values.to!);
  try {
    const counts = await from.transfer.count();
    const bar = values['no-progress']
      ? null
      : new SingleBar(
          { format: 'migrate [{bar}] {percentage}% | {value}/{total} | {what} | ETA {eta}s', noTTYOutput: true, notTTYSchedule: 5000 },
          Presets.shades_classic,
        );
    bar?.start(
      Object.values(counts).reduce((sum, n) => sum + n, 0),
      0,
      { what: '' },
    );
    const started = performance.now();
    const report = await copyStore(from, to, {
      batch,
      blobBatch: Math.min(batch, 16),
      dryRun,
      progress: (what: Kind | 'blobs', count) => bar?.increment(count, { what }),
    });
    bar?.stop();
    printCopy(report, dryRun, (performance.now() - started) / 1000);
    if (!dryRun) await waitForClock(to, report.lastPosition);
    if (!values.verify) return;
    const verified = await verifyStores(from, to, batch, Math.min(batch, 16));
    console.log(table([['', 'equal'], ...Object.entries(verified.same)]));
    for (const d of verified.differences.slice(0, 20)) console.log(`${d.what} ${d.id}: ${d.how}`);
    console.log(`${verified.differences.length} differences`);
    if (verified.differences.length) process.exitCode = 1;
  } finally {
    await from.close();
    await to.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
