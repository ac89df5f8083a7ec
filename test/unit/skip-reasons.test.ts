import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A test skipped for something missing (a tool, a server, files beside the repository) says why: tap's summary shows
 * the `skip` text, so a plain `npm test` never skips a test without a word. Each `skip` option of the test files must
 * be a string when it skips: an expression with a string in it, or a constant of the file defined with one.
 */
const TEST_DIR = join(__dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const HAS_STRING = /['"`]/;

/** The text a `skip` option's value is made of: the expression, or the definition of the constant it names. */
function skipValue(sources: string, expression: string, depth = 0): string {
  if (depth > 3 || !/^[A-Za-z_$][\w$]*$/.test(expression) || expression === 'false') return expression;
  const definition = new RegExp(`\\bconst ${expression.replace('$', '\\$')}\\s*=([^;]*);`).exec(sources);
  return definition ? skipValue(sources, definition[1].trim(), depth + 1) : expression;
}

/** Every `skip` option of a file (`{ skip }`, `{ skip: … }`), with its line; `shared` is where constants come from. */
function skips(source: string, shared = ''): { line: number; value: string }[] {
  const found: { line: number; value: string }[] = [];
  for (const m of source.matchAll(/\{\s*skip\s*\}|\bskip:\s*([^,}\n]+)/g)) {
    const line = source.slice(0, m.index).split('\n').length;
    found.push({ line, value: skipValue(`${source}\n${shared}`, (m[1] ?? 'skip').trim()) });
  }
  return found;
}

t.test('every skip in the test files says why', async (t) => {
  let seen = 0;
  // The fixtures' constants a test file may import (ocdsSchemasSkip).
  const fixtures = testFiles(join(TEST_DIR, 'fixtures'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  for (const file of testFiles(TEST_DIR).filter((file) => file !== __filename)) {
    const source = readFileSync(file, 'utf8');
    for (const { line, value } of skips(source, fixtures)) {
      seen++;
      t.match(value, HAS_STRING, `${relative(TEST_DIR, file)}:${line}: the skip gives its reason`);
      t.notMatch(value, /^\s*true\s*$/, `${relative(TEST_DIR, file)}:${line}: not a bare true`);
    }
    // A file that skips all its tests plans none, with the reason: t.plan(0, 'MONGODB_URL not set').
    for (const m of source.matchAll(/\bt\.plan\(0\s*\)/g))
      t.fail(`${relative(TEST_DIR, file)}:${source.slice(0, m.index).split('\n').length}: t.plan(0) without its reason`);
  }
  t.ok(seen >= 8, `${seen} skips checked`);
});

t.test('the check tells a skip with a reason from one without', async (t) => {
  t.match(skips("t.test('x', { skip: !present && 'the tool is not installed' }, f)")[0].value, HAS_STRING);
  t.match(
    skips("const skip = NO_TOOL;\nt.test('x', { skip }, f)", "export const NO_TOOL = x ? false : 'not installed';")[0].value,
    HAS_STRING,
  );
  t.notMatch(skips('t.test("x", { skip: !present }, f)')[0].value, HAS_STRING);
  t.notMatch(skips('const skip = !present;\nt.test("x", { skip }, f)')[0].value, HAS_STRING);
  t.match(skips("const skip = present ? false : 'absent';\nt.test('x', { skip }, f)")[0].value, HAS_STRING);
  t.match(skips("const NO_TOOL =\n  x ? 'not installed' : false;\nt.test('x', { skip: NO_TOOL }, f)")[0].value, HAS_STRING);
});
