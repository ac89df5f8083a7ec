/** `tsx scripts/bench/profile-top.ts FILE.cpuprofile [N]`: self time by function, the top N, as a table. */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const [file, top = '25'] = process.argv.slice(2);
const profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] } = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const f = byId.get(id)!.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/main\//, '')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  total += dt;
});
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top));
for (const [k, v] of rows) process.stdout.write(`${((100 * v) / total).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}\n`);
