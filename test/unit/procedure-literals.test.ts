import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { TENDER_PROCEDURES } from '../../src/domain/tender';

/**
 * A procedure owns its phases (docs/architecture.md §Procedures as data): the shared tender machine asks the
 * procedure, so no status a procedure owns — its active phases (`active.*`) and the reference's other draft phases
 * (`draft.*`) — is named as a literal outside src/domain/tender/procedures/. Comments may name them.
 */
const SRC = resolve(__dirname, '../../src');
const PROCEDURES = join(SRC, 'domain/tender/procedures');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The code without its comments (a `//` inside a string is kept: none of ours holds a status after one). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const STATUS_LITERAL = /['"`]((?:active|draft)\.[\w.-]+)['"`]/g;

/** `file:line literal` for every status literal in the code of `files`. */
function literalsIn(files: string[]): string[] {
  return files.flatMap((file) =>
    code(readFileSync(file, 'utf8'))
      .split('\n')
      .flatMap((line, i) => [...line.matchAll(STATUS_LITERAL)].map((m) => `${relative(SRC, file)}:${i + 1} ${m[1]}`)),
  );
}

const all = sources(SRC);

t.test('no procedure-owned tender status literal outside procedures/', async (t) => {
  t.same(literalsIn(all.filter((f) => !f.startsWith(PROCEDURES))), []);
});

t.test('the guard sees the literals where they belong', async (t) => {
  const inside = literalsIn(all.filter((f) => f.startsWith(PROCEDURES)));
  t.ok(
    inside.some((l) => l.endsWith(' active.tendering')),
    `${inside.length} literals in procedures/`,
  );
});

t.test("every procedure's windows and editable statuses are among its phases", async (t) => {
  for (const procedure of Object.values(TENDER_PROCEDURES)) {
    const phases = new Set<string>(procedure.phases.map((p) => p.status));
    t.equal(procedure.phases[0].status, 'draft', `${procedure.type} starts as a draft`);
    const { evidence: _reference, winnerEvidence: _texts, winnerResponses: _only, complaints: _none, ...windows } = procedure.windows;
    const named = [...Object.values(windows).flat(), ...procedure.editableStatuses];
    t.same(
      named.filter((s) => !phases.has(s)),
      [],
      `${procedure.type} names no status it lacks`,
    );
  }
});
