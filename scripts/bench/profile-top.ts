/**
 * `tsx scripts/bench/profile-top.ts FILE.cpuprofile [N] [--inclusive]`: the top N functions by self time, or
 * with `--inclusive` by total time (self + callees, each function counted once per sample), as a table.
 * Percentages are of the busy (non-idle) time.
 */
import { readFileSync } from 'node:fs';
import { parseCli } from '../cli';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const USAGE = `usage: npx tsx scripts/bench/profile-top.ts FILE.cpuprofile [N] [--inclusive]

The top N (default 25) functions of a CPU profile by self time, or by total time with --inclusive.`;
const { values, positionals } = parseCli(USAGE, { inclusive: { type: 'boolean', default: false } }, { positionals: true });
const inclusive = values.inclusive;
const [file, top = '25'] = positionals;
if (!file) {
  process.stderr.write(`a profile file is required\n\n${USAGE}\n`);
  process.exit(2);
}
const profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] } = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const nameOf = (n: Node) => {
  const f = n.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/main\//, '')}:${f.lineNumber + 1}`;
};
const IDLE = new Set(['(idle)', '(program)']);
const time = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const leaf = byId.get(id)!;
  if (IDLE.has(leaf.callFrame.functionName)) return;
  busy += dt;
  const names = new Set<string>();
  for (let n: Node | undefined = leaf; n; n = inclusive ? byId.get(parentOf.get(n.id) ?? -1) : undefined) names.add(nameOf(n));
  for (const name of names) time.set(name, (time.get(name) ?? 0) + dt);
});
const rows = [...time.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top));
process.stdout.write(`busy ${(busy / 1000).toFixed(0)} ms\n`);
for (const [k, v] of rows)
  process.stdout.write(`${((100 * v) / busy).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}\n`);
