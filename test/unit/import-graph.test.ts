import t from 'tap';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The layering of src/ (docs/architecture.md §Module layout): no import circles, type-only imports included, and the
 * platform (src/http/) never reaching up into the domain.
 */
const SRC = resolve(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const target = resolve(dirname(file), match[1]);
    const path = [`${target}.ts`, join(target, 'index.ts')].find(existsSync);
    if (path) out.push(path);
  }
  return out;
}

const graph = new Map(sources(SRC).map((file) => [file, importsOf(file)]));
const name = (file: string) => relative(SRC, file);

t.test('no import circles in src/', async (t) => {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...trail.slice(trail.indexOf(file)), file].map(name).join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  t.ok(graph.size > 100, `${graph.size} modules read`);
  t.same(circles, []);
});

t.test('nothing under src/http/ imports src/domain/', async (t) => {
  const upward = [...graph].flatMap(([file, targets]) =>
    name(file).startsWith('http/') ? targets.filter((x) => name(x).startsWith('domain/')).map((x) => `${name(file)} → ${name(x)}`) : [],
  );
  t.same(upward, []);
});

/** The folder of a domain kind (`domain/tender/bids/x.ts` → `tender`); core and the domain's own root are no kind. */
const kindOf = (file: string) => /^domain\/([^/]+)\//.exec(name(file))?.[1] ?? null;

/** Each layering rule (issue 27, docs/architecture.md §Module layout): which imports break it. */
const RULES: [string, (from: string, to: string) => boolean][] = [
  [
    'the store, time, masking and security import neither the domain, nor the jobs, nor HTTP',
    (from, to) => /^(store|time|masking|security)\//.test(name(from)) && /^(domain|jobs|http)\//.test(name(to)),
  ],
  [
    'the domain imports neither jobs/ nor the app and its entry points',
    (from, to) => name(from).startsWith('domain/') && /^(jobs\/|app\.ts|node\.ts|main\.ts)/.test(name(to)),
  ],
  [
    "core imports no kind, nor the domain's own modules that list the kinds: what core needs of them is handed to it",
    (from, to) => kindOf(from) === 'core' && name(to).startsWith('domain/') && kindOf(to) !== 'core',
  ],
  [
    "a kind reaches another only through that kind's entry (its index.ts) or its types (<kind>.types.ts)",
    (from, to) =>
      kindOf(from) !== null &&
      kindOf(to) !== null &&
      kindOf(from) !== kindOf(to) &&
      kindOf(to) !== 'core' &&
      !new RegExp(`^domain/${kindOf(to)}/(index|[\\w-]+\\.types)\\.ts$`).test(name(to)),
  ],
];

for (const [rule, breaks] of RULES) {
  t.test(rule, async (t) => {
    const broken = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => breaks(file, target)).map((target) => `${name(file)} → ${name(target)}`),
    );
    t.same(broken, []);
  });
}
