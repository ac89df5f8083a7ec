import type { Summary } from './check-run';
import { nemesisLines } from './nemesis';
import { GUARANTEES } from './violations';

const ms = (v: number) => `${v.toFixed(1)} ms`;

/** The human-readable report; its last line is PASS or FAIL. */
export function formatSummary(s: Summary): string {
  const ops = Object.entries(s.operations)
    .map(([op, n]) => `${op} ${n}`)
    .join(' · ');
  const total = s.violations.total();
  const lines = [
    `consistency check: ${s.clients} clients for ${s.elapsedS.toFixed(1)} s, targets ${s.targets.join(' ')}`,
    `operations   ${ops}`,
    `412s         ${s.preconditionFailed} (each retried with the new cookie)`,
    `unreachable  ${s.unreachable} attempts moved to another target; ${s.writesRepeated} writes repeated after an attempt got no answer`,
    `latency      p50 ${ms(s.latencyMs.p50)} · p95 ${ms(s.latencyMs.p95)} · p99 ${ms(s.latencyMs.p99)}`,
    `verified     ${s.objectsVerified} objects at the end, ${s.violations.counts['lost-write']} acknowledged writes lost`,
    `violations   ${total} (${GUARANTEES.map((g) => `${g} ${s.violations.counts[g]}`).join(', ')})`,
  ];
  if (s.kill) {
    const k = s.kill;
    lines.push(
      `kill-node    ${k.node} killed at ${k.killedAtS.toFixed(1)} s, restarted at ${k.restartedAtS.toFixed(1)} s; ` +
        `${k.recovered}/${k.clients} clients holding its cookie got 412 and then read their write`,
    );
  }
  if (s.faults.length || s.outcomes.info) {
    lines.push(`outcomes     ok ${s.outcomes.ok} · failed ${s.outcomes.fail} · indeterminate ${s.outcomes.info} (recorded operations)`);
    lines.push(`5xx          ${s.serverErrors} other than the documented 503`);
  }
  lines.push(...nemesisLines(s.faults, s.skipped));
  if (s.elle) {
    lines.push(
      `adya         ${s.elle.verdict} on ${s.elle.operations} operations (${s.elle.path}, ${s.elle.elapsedMs} ms): ${s.elle.detail}; ` +
        `${agrees(s) ? 'agrees with' : 'DISAGREES with'} this checker`,
    );
  }
  for (const v of s.violations.examples) lines.push(`  ${v.guarantee} (client ${v.client}): ${v.detail}`);
  lines.push(passed(s) ? 'PASS' : 'FAIL');
  return lines.join('\n');
}

/**
 * No violation, with --kill-node every client of the killed node recovered through 412, with a history the
 * independent checker found it causally consistent, no undocumented 5xx, and the cluster recovered after each heal.
 */
export function passed(s: Summary): boolean {
  return (
    s.violations.total() === 0 &&
    (!s.kill || s.kill.recovered === s.kill.clients) &&
    (!s.elle || s.elle.verdict === 'valid') &&
    s.serverErrors === 0 &&
    s.faults.every((f) => f.recoveryMs !== null)
  );
}

/**
 * The two checkers reach the same verdict on the session guarantees. Lost writes are this checker's alone: adya
 * sees sessions, and the final reads that find them are made by fresh ones.
 */
export function agrees(s: Summary): boolean {
  const own = s.violations.total() - s.violations.counts['lost-write'];
  return s.elle?.verdict === (own === 0 ? 'valid' : 'invalid');
}
