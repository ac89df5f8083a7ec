import { spawnSync } from 'node:child_process';

/**
 * What the design promises (docs/cluster.md §Independent checker): per session, read-your-writes, monotonic reads,
 * monotonic writes and writes-follow-reads, which together are causal consistency. adya (and Elle) name the model
 * `causal` but check no anomaly for it; in their list-append terms a causal violation is a cycle of session-order,
 * write-read and write-write edges (G1c-process) or one closed by a single anti-dependency (G-single-process), or an
 * aborted or intermediate read (G1a, G1b). Cycles with two or more anti-dependencies (G2) are allowed: concurrent
 * sessions need not see each other's writes.
 */
export const ADYA_ARGS = ['check', '-m', 'list-append', '-c', 'strong-session-read-committed', '-a', 'G1,G-single-process'];

export interface ElleVerdict {
  /** valid, invalid, unknown (no dependency to infer, or the cycle search timed out), or not run. */
  verdict: 'valid' | 'invalid' | 'unknown' | 'not run';
  /** The checker's own last lines: its anomaly counts, or why it did not run. */
  detail: string;
  elapsedMs: number;
}

/** Checks a history file with adya (`cargo install adya`); `ADYA` names another binary. */
export function checkWithAdya(historyPath: string): ElleVerdict {
  const started = Date.now();
  const run = spawnSync(process.env.ADYA || 'adya', [...ADYA_ARGS, historyPath], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const elapsedMs = Date.now() - started;
  if (run.error) return { verdict: 'not run', detail: run.error.message, elapsedMs };
  const lines = `${run.stdout}${run.stderr}`.trim().split('\n');
  const detail = lines.slice(-3).join(' / ');
  const verdict = run.status === 0 ? 'valid' : run.status === 1 ? 'invalid' : run.status === 2 ? 'unknown' : 'not run';
  return { verdict, detail, elapsedMs };
}
