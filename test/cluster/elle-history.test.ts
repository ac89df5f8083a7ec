import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { checkWithAdya } from '../../scripts/consistency/elle';
import { History, type MicroOp, type Outcome } from '../../scripts/consistency/history';

const ADYA_SKIP = spawnSync(process.env.ADYA || 'adya', ['--version']).error ? 'adya is not installed (cargo install adya)' : false;

type Step = [session: number, outcome: Outcome, ops: MicroOp[]];

/** The history of steps made one after another, checked by adya for the session guarantees (scripts/consistency/elle.ts). */
function verdict(steps: Step[]) {
  const history = new History();
  for (const [session, outcome, ops] of steps) history.begin(session)(outcome, ops);
  const dir = mkdtempSync(join(tmpdir(), 'elle-history-'));
  try {
    history.write(join(dir, 'history.jsonl'));
    return checkWithAdya(join(dir, 'history.jsonl')).verdict;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

t.test('the recorded history is Elle JSON lines: each invocation, then its completion, in time order', async (t) => {
  const history = new History();
  const first = history.begin(0);
  const second = history.begin(1);
  second('ok', [['r', 'k', [0]]]);
  first('info', [['append', 'k', 0]]);
  const lines = history
    .toJsonLines()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.same(
    lines.map((l) => [l.index, l.process, l.type, l.value]),
    [
      [0, 0, 'invoke', [['append', 'k', 0]]],
      [1, 1, 'invoke', [['r', 'k', null]]],
      [2, 1, 'ok', [['r', 'k', [0]]]],
      [3, 0, 'info', [['append', 'k', 0]]],
    ],
  );
  t.ok(
    lines.every((l, i) => i === 0 || l.time >= lines[i - 1].time),
    'times never go back',
  );
});

t.test('adya finds each session guarantee broken, and lets concurrent sessions miss each other', { skip: ADYA_SKIP }, async (t) => {
  const wrote: Step[] = [
    [0, 'ok', [['append', 'a', 0]]],
    [0, 'ok', [['append', 'a', 1]]],
  ];
  t.equal(verdict([...wrote, [1, 'ok', [['r', 'a', [0, 1]]]], [0, 'ok', [['r', 'a', [0]]]]]), 'invalid', 'read-your-writes');
  t.equal(verdict([...wrote, [1, 'ok', [['r', 'a', [0, 1]]]], [1, 'ok', [['r', 'a', [0]]]]]), 'invalid', 'monotonic reads');
  t.equal(verdict([...wrote, [1, 'ok', [['r', 'a', [1, 0]]]]]), 'invalid', 'monotonic writes');
  const wfr: Step[] = [
    [0, 'ok', [['append', 'a', 0]]],
    [1, 'ok', [['r', 'a', [0]]]],
    [1, 'ok', [['append', 'b', 0]]],
    [2, 'ok', [['r', 'b', [0]]]],
    [2, 'ok', [['r', 'a', []]]],
  ];
  t.equal(verdict(wfr), 'invalid', 'writes-follow-reads');
  t.equal(verdict([...wrote, [0, 'ok', [['r', 'a', [0, 1]]]], [1, 'ok', [['r', 'a', [0]]]]]), 'valid', 'another session may read less');
  const concurrent: Step[] = [
    [0, 'ok', [['append', 'a', 0]]],
    [1, 'ok', [['append', 'b', 0]]],
    [0, 'ok', [['r', 'b', []]]],
    [1, 'ok', [['r', 'a', []]]],
  ];
  t.equal(verdict(concurrent), 'valid', 'two sessions that miss each other: causal, not serializable');
  t.equal(
    verdict([
      [0, 'fail', [['append', 'a', 0]]],
      [1, 'ok', [['r', 'a', [0]]]],
    ]),
    'invalid',
    'a failed write read back (G1a)',
  );
  t.equal(
    verdict([
      [0, 'info', [['append', 'a', 0]]],
      [1, 'ok', [['r', 'a', [0]]]],
    ]),
    'valid',
    'an indeterminate write may land',
  );
});
