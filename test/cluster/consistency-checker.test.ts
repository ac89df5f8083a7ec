import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { formatFeedSummary, runFeedCheck } from '../../scripts/consistency/feed-check';
import { runConsistencyCheck } from '../../scripts/consistency/check-run';
import { agrees, passed } from '../../scripts/consistency/summary';
import { ENGINE, HEARTBEAT_TTL_MS, startTestCluster } from './fixtures';

const ADYA_INSTALLED = !spawnSync(process.env.ADYA || 'adya', ['--version']).error;

t.test(
  'the checker reports violations when one node serves stale reads (TEST_STALE_READS)',
  { skip: ENGINE === 'sqlite' ? false : 'TEST_STALE_READS exists on the SQLite engine only; the checker is the same on both' },
  async (t) => {
    const stale: Record<string, string> = { TEST_STALE_READS: '1', NODE_ENV: 'test' };
    const cluster = await startTestCluster({ nodeEnv: (i) => (i === 2 ? stale : {}) });
    t.teardown(() => cluster.stop());
    const dir = mkdtempSync(join(tmpdir(), 'consistency-history-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const summary = await runConsistencyCheck({
      targets: cluster.api.map((n) => n.url),
      clients: 8,
      operations: 40,
      seconds: 60,
      historyPath: ADYA_INSTALLED ? join(dir, 'history.jsonl') : undefined,
    });
    t.ok(summary.violations.total() > 0, `${summary.violations.total()} violations`);
    t.ok(summary.violations.counts['read-your-writes'] > 0, 'own writes missing on the stale node');
    t.equal(summary.violations.counts['lost-write'], 0, 'stale reads lose nothing');
    t.notOk(passed(summary));
    if (ADYA_INSTALLED) {
      t.equal(summary.elle?.verdict, 'invalid', `adya on the same history: ${summary.elle?.detail}`);
      t.ok(agrees(summary), 'both checkers fail the run');
    }
  },
);

// On MongoDB a kill -9 that lands inside a commit leaves its transaction holding the feed-sequence document until
// the server's transaction lifetime limit (60 s): writers get 503s meanwhile and the run cannot finish in a CI
// budget (README, MongoDB engine). The checker itself runs on MongoDB in three-nodes.test.ts.
const KILL_NODE_SKIP =
  ENGINE === 'mongodb' ? 'kill -9 inside a MongoDB commit stalls writers for the transaction lifetime (known, README)' : false;

t.test(
  `with --kill-node on ${ENGINE}, clients of the killed node recover through 412 and no acknowledged write is lost`,
  { skip: KILL_NODE_SKIP },
  async (t) => {
    const cluster = await startTestCluster();
    t.teardown(() => cluster.stop());
    const summary = await runConsistencyCheck({ cluster, killNode: true, clients: 8, seconds: 8, heartbeatTtlMs: HEARTBEAT_TTL_MS });
    t.equal(summary.violations.total(), 0, JSON.stringify(summary.violations.examples));
    t.ok(summary.kill && summary.kill.clients > 0, `${summary.kill?.clients} sessions held the killed node's cookie`);
    t.equal(summary.kill?.recovered, summary.kill?.clients, 'each got 412, then read its write with the new cookie');
    t.ok(
      cluster.api.every((n) => n.running),
      'the killed node was started again',
    );
    t.ok(summary.objectsVerified > 0, `${summary.objectsVerified} objects verified from fresh sessions`);
    t.ok(passed(summary));
  },
);

t.test(`--feed on ${ENGINE}: every change acknowledged through two nodes is listed by every paged and live crawler`, async (t) => {
  const cluster = await startTestCluster({ nodes: 2, worker: false });
  t.teardown(() => cluster.stop());
  const targets = cluster.api.map((n) => n.url);
  const summary = await runFeedCheck({ targets, writers: 2, crawlers: 2, seconds: 2, killNode: false, nodes: 2 });
  t.ok(summary.changes > 0, `${summary.changes} changes acknowledged`);
  t.equal(summary.checks, summary.changes * 4, 'each checked against two paged and two live crawlers');
  t.equal(summary.missed, 0, summary.examples.join('; '));
  t.match(formatFeedSummary(summary), /\nPASS$/);
});
