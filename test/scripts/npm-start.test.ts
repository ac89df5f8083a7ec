import t, { type Test } from 'tap';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { freePort } from '../../cluster/free-port';

const ROOT = join(__dirname, '../..');
const START_SCRIPT = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;

/**
 * A tree shaped like the repository's, with the real scripts/start.sh and package.json `start`, a `tsc` that only
 * records that it ran and writes a `main.js` that waits for SIGTERM, so the build decision and the signal's path
 * are checked without compiling the project.
 */
function fakeTree(t: Test): { dir: string; builds: () => number; start: (env?: Record<string, string>) => ChildProcess } {
  const dir = mkdtempSync(join(tmpdir(), 'registry-start-'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  copyFileSync(join(ROOT, 'scripts/start.sh'), join(dir, 'scripts/start.sh'));
  chmodSync(join(dir, 'scripts/start.sh'), 0o755);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fake', version: '1.0.0', scripts: { start: START_SCRIPT } }));
  writeFileSync(join(dir, 'tsconfig.json'), '{}');
  writeFileSync(join(dir, 'src/main.ts'), '');
  const main = `process.on('SIGTERM', () => { console.log('main: SIGTERM'); process.exit(0); });
console.log('main: up'); setInterval(() => {}, 1000);`;
  writeFileSync(
    join(dir, 'node_modules/.bin/tsc'),
    // A node script, this node its interpreter: no shell's path named.
    `#!${process.execPath}
const fs = require('node:fs');
fs.appendFileSync('build.log', 'built\\n');
fs.mkdirSync('dist/src', { recursive: true });
fs.writeFileSync('dist/src/main.js', ${JSON.stringify(`${main}\n`)});
process.exit(Number(process.env.FAIL_BUILD || 0));
`,
  );
  chmodSync(join(dir, 'node_modules/.bin/tsc'), 0o755);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const builds = () => (existsSync(join(dir, 'build.log')) ? readFileSync(join(dir, 'build.log'), 'utf8').split('\n').length - 1 : 0);
  const start = (env: Record<string, string> = {}) =>
    spawn('npm', ['start', '--silent'], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { dir, builds, start };
}

/** What the process writes to stdout, kept whole; `until` waits for a text to appear. */
function output(child: ChildProcess): { text: () => string; until: (text: string) => Promise<void> } {
  let out = '';
  child.stdout!.on('data', (chunk) => (out += String(chunk)));
  const until = async (text: string) => {
    while (!out.includes(text)) {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before writing ${text}: ${out}`);
      await once(child.stdout!, 'data');
    }
  };
  return { text: () => out, until };
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : once(child, 'exit').then(([code]) => code as number | null);

/** Runs the tree's `npm start` until main.js is up, then sends SIGTERM to npm's process: what a supervisor does. */
async function startAndTerminate(tree: ReturnType<typeof fakeTree>, t: Test): Promise<void> {
  const child = tree.start();
  const out = output(child);
  await out.until('main: up');
  child.kill('SIGTERM');
  t.equal(await exited(child), 0, 'npm exits 0');
  t.match(out.text(), /main: SIGTERM/, 'main.js got the SIGTERM sent to npm');
}

t.test('npm start builds only when there is no build or src/ is newer, and SIGTERM to npm reaches node', async (t) => {
  const tree = fakeTree(t);
  await startAndTerminate(tree, t);
  t.equal(tree.builds(), 1, 'no build yet: built');
  await startAndTerminate(tree, t);
  t.equal(tree.builds(), 1, 'build current: started from it, not built again');
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(tree.dir, 'src/main.ts'), later, later);
  await startAndTerminate(tree, t);
  t.equal(tree.builds(), 2, 'a source newer than the build: built again');
});

t.test('a build that fails leaves no main.js, so the next start builds again', async (t) => {
  const tree = fakeTree(t);
  const failed = tree.start({ FAIL_BUILD: '2' });
  t.equal(await exited(failed), 1, 'npm start fails');
  t.notOk(existsSync(join(tree.dir, 'dist/src/main.js')), 'no main.js left');
  await startAndTerminate(tree, t);
  t.equal(tree.builds(), 2, 'built again');
});

t.test('npm start of the repository: the node serves, and SIGTERM to npm stops it cleanly', async (t) => {
  // Builds first when dist/ is missing or older than src/ (CI has built it already).
  t.setTimeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'registry-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', STORE_URL: `sqlite:${join(dir, 'r.db')}`, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const out = output(child);
  await out.until('"listening"');
  t.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200, 'serving');
  child.kill('SIGTERM');
  t.equal(await exited(child), 0, 'npm (and the node under it) exited 0');
  t.match(out.text(), /"draining"/, 'the node drained');
  t.not(spawnSync('curl', ['-s', '-o', devNull, `http://127.0.0.1:${port}/healthz`]).status, 0, 'nothing listens on the port');
});
