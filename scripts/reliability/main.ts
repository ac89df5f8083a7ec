import { BUDGETS } from './budgets';
import { runBoundedWork, type BoundedWorkResult } from './bounded-work';
import { runBidActivity } from './bid-activity';
import { runCanaries, type CanaryResult } from './canaries';
import { runClusterStorm } from './cluster-storm';
import { redisOutageFault, slowStoreFault, sqliteLockFault, type FaultOutcome } from './faults';
import { runFuzz } from './fuzz';
import { runMultipartFuzz } from './multipart-fuzz';
import { parseCli } from '../cli';

/** No request may block the event loop longer (docs/platform.md §Limits). */
const MAX_LOOP_DELAY_MS = 100;

interface Row {
  check: string;
  measured: string;
  ok: boolean;
}

/** `npm run reliability [-- --ci]`: every scenario with bounded counts, one table; exits 1 if any check fails. */
async function main() {
  const { values } = parseCli(
    `usage: npm run reliability [-- --ci | --worst-bodies]

Every reliability scenario with bounded counts (write storm with kill -9, canaries, fuzzing, faults, hostile
input), printed as one table; exits 1 if any check fails.

  --ci            the small budgets CI uses
  --worst-bodies  only the worst bodies at BODY_LIMIT (bounded-work.ts), with the largest loop delay per shape
  -h, --help      this text`,
    { ci: { type: 'boolean', default: false }, 'worst-bodies': { type: 'boolean', default: false } },
  );
  const budget = values.ci ? BUDGETS.ci : BUDGETS.full;
  const started = Date.now();
  const progress = (what: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${what}`);
  if (values['worst-bodies']) {
    const bounded = await runBoundedWork();
    const { rows, lines } = boundedRows(bounded);
    console.log([renderTable(rows), ...lines, ...bounded.examples.map((e) => `  ${e}`)].join('\n'));
    console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
    process.exit(rows.every((r) => r.ok) ? 0 : 1);
  }

  progress('write storm through 3 nodes, crawlers, kill -9');
  const storm = await runClusterStorm(budget.storm);
  progress('canaries');
  const canaries: CanaryResult[] = [];
  for (const mode of budget.canaryModes) canaries.push(await runCanaries(mode));
  progress('bid activity');
  const bidActivity = await runBidActivity();
  progress('fuzzing');
  const fuzz = await runFuzz(budget.fuzzRunsPerEndpoint);
  progress('multipart fuzzing');
  const multipart = await runMultipartFuzz(budget.multipartCasesPerRoute);
  progress('worst bodies at BODY_LIMIT');
  const bounded = await runBoundedWork();
  const boundedReport = boundedRows(bounded);
  progress('faults');
  const faults: FaultOutcome[] = [
    { fault: 'kill -9 of an API node under load', survived: storm.faultsSurvived === 1, detail: 'write storm' },
  ];
  for (const fault of [slowStoreFault, sqliteLockFault, redisOutageFault]) faults.push(await fault());

  const sum = (pick: (c: (typeof canaries)[number]) => number) => canaries.reduce((n, c) => n + pick(c), 0);
  const rows: Row[] = [
    {
      check: `writes acknowledged / lost (${storm.writers} writers, 3 nodes)`,
      measured: `${storm.acknowledged} / ${storm.lost}`,
      ok: storm.lost === 0 && storm.phantom === 0,
    },
    {
      check: '409 conflicts retried / outcomes unknown and retried / 5xx',
      measured: `${storm.conflicts} / ${storm.uncertain} / ${storm.serverErrors}`,
      ok: storm.serverErrors === 0,
    },
    {
      check: 'changes missed by crawlers (forward / descending)',
      measured: `${storm.crawl.missedForward} / ${storm.crawl.missedDescending}`,
      ok: storm.crawl.missedForward + storm.crawl.missedDescending === 0,
    },
    {
      check: 'dateModified going backwards in a crawl',
      measured: String(storm.crawl.dateModifiedBackwards),
      ok: storm.crawl.dateModifiedBackwards === 0,
    },
    {
      check: `canaries planted / leaked / missing / 5xx (${budget.canaryModes.join(', ')}; ${sum((c) => c.requests)} reads)`,
      measured: `${sum((c) => c.canaries)} / ${sum((c) => c.leaked)} / ${sum((c) => c.missing)} / ${sum((c) => c.failed)}`,
      ok: sum((c) => c.leaked + c.missing + c.failed) === 0,
    },
    {
      check: `bid actions / reads changed / listed again after a held offset / failed (${bidActivity.compared} reads compared)`,
      measured: `${bidActivity.actions} / ${bidActivity.changed} / ${bidActivity.listedAgain} / ${bidActivity.failed}`,
      ok: bidActivity.changed + bidActivity.listedAgain + bidActivity.failed === 0,
    },
    {
      check: 'owner/transfer tokens in views, feeds, logs',
      measured: String(sum((c) => c.tokensLeaked)),
      ok: sum((c) => c.tokensLeaked) === 0,
    },
    {
      check: `fuzz cases run / 5xx seen / bad error format / state corrupted (${fuzz.endpoints} endpoints)`,
      measured: `${fuzz.cases} / ${fuzz.serverErrors} / ${fuzz.badFormat} / ${fuzz.stateCorrupted}`,
      ok: fuzz.serverErrors + fuzz.badFormat + fuzz.stateCorrupted === 0,
    },
    {
      check: `multipart uploads run / stored / bad answer / stored on refusal / node not answering (${multipart.routes} upload routes)`,
      measured: `${multipart.cases} / ${multipart.stored} / ${multipart.bad} / ${multipart.stateChanged} / ${multipart.deadAfter}`,
      ok: multipart.bad + multipart.stateChanged + multipart.deadAfter === 0,
    },
    ...boundedReport.rows,
    {
      check: 'faults injected / survived',
      measured: `${faults.length} / ${faults.filter((f) => f.survived).length}`,
      ok: faults.every((f) => f.survived),
    },
  ];
  console.log(renderTable(rows));
  for (const f of faults) console.log(`- ${f.survived ? 'survived' : 'FAILED'}: ${f.fault} (${f.detail})`);
  console.log(boundedReport.lines.join('\n'));
  for (const example of [
    ...fuzz.examples,
    ...multipart.examples,
    ...bounded.examples,
    ...bidActivity.examples,
    ...canaries.flatMap((c) => c.examples),
  ])
    console.log(`  ${example}`);
  console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(rows.every((r) => r.ok) ? 0 : 1);
}

/** The worst-bodies check's rows of the table, and its largest loop delay per shape as lines under it. */
function boundedRows(bounded: BoundedWorkResult): { rows: Row[]; lines: string[] } {
  return {
    rows: [
      {
        check: `worst bodies at BODY_LIMIT (${bounded.requests} requests): max loop delay / 5xx; worst: ${bounded.worst}`,
        measured: `${bounded.maxLoopDelayMs.toFixed(0)} ms / ${bounded.serverErrors}`,
        ok: bounded.maxLoopDelayMs <= MAX_LOOP_DELAY_MS && bounded.serverErrors === 0,
      },
      {
        check: '/healthz beside them: p99 / max',
        measured: `${bounded.healthzP99Ms.toFixed(0)} ms / ${bounded.healthzMaxMs.toFixed(0)} ms`,
        ok: true,
      },
    ],
    lines: Object.entries(bounded.byShape).map(([shape, ms]) => `- max loop delay, ${shape}: ${ms.toFixed(0)} ms`),
  };
}

function renderTable(rows: Row[]): string {
  const lines = ['| Check | Measured | |', '|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.check} | ${r.measured} | ${r.ok ? 'ok' : 'FAIL'} |`);
  return lines.join('\n');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(2);
});
