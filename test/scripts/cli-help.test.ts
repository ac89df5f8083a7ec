import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

/** Every command a user runs from scripts/ and cluster/ (the bench's baseline is started by the bench). */
const COMMANDS: [string, string[]][] = [
  ['scripts/bench/run.ts', ['node', '--import=tsx']],
  ['scripts/bench/baseline.ts', ['node', '--import=tsx']],
  ['scripts/bench/object-reads.ts', ['node', '--import=tsx']],
  ['scripts/bench/profile-top.ts', ['node', '--import=tsx']],
  ['scripts/bench/live-feed.ts', ['node', '--import=tsx']],
  ['scripts/bench/slow-readers.ts', ['node', '--import=tsx']],
  ['scripts/consistency/main.ts', ['node', '--import=tsx']],
  ['scripts/load/main.ts', ['node', '--import=tsx']],
  ['scripts/reliability/main.ts', ['node', '--import=tsx']],
  ['scripts/seed/main.ts', ['node', '--import=tsx']],
  ['scripts/migrate/main.ts', ['node', '--import=tsx']],
  ['scripts/validate-k8s.ts', ['node', '--import=tsx']],
  ['cluster/main.ts', ['node', '--import=tsx']],
  ['scripts/auction/main.ts', ['node', '--import=tsx']],
  ['scripts/openapi.ts', ['node', '--import=tsx']],
  ['scripts/start.sh', ['bash']],
  ['scripts/mongo-test-server.sh', ['bash']],
  ['scripts/schemathesis.sh', ['bash']],
  ['scripts/validate-k8s.sh', ['bash']],
  ['cluster/mongo-replica-set.sh', ['bash']],
];

const run = (runner: string[], script: string, arg: string) => {
  const [cmd, ...args] = runner;
  return spawnSync(cmd, [...args, join(ROOT, script), arg], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
};

for (const [script, runner] of COMMANDS) {
  t.test(`${script} --help → its usage on stdout, exit 0; a wrong option → named with the usage on stderr, exit 2`, async (t) => {
    const help = run(runner, script, '--help');
    t.equal(help.status, 0, help.stderr);
    t.match(help.stdout, /usage:|\.sh\b/);
    const wrong = run(runner, script, '--no-such-option');
    t.equal(wrong.status, 2, wrong.stderr);
    t.match(wrong.stderr, /no-such-option/);
    t.match(wrong.stderr, help.stdout.split('\n')[0].trim());
  });
}

t.setTimeout(300_000);

const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** package.json scripts that are a tool's own command: `--help` is the tool's (tsc, tap, eslint, prettier). */
const TOOL_SCRIPTS: Record<string, string> = { build: 'tsc', typecheck: 'tsc', test: 'tsc', lint: 'eslint', format: 'prettier' };

t.test('every package.json script is a covered command or a tool', async (t) => {
  for (const [name, command] of Object.entries(SCRIPTS)) {
    const tool = TOOL_SCRIPTS[name];
    if (tool) {
      t.match(command, new RegExp(`^${tool} `), `${name} runs ${tool}`);
      continue;
    }
    const file = COMMANDS.find(([script]) => command.includes(script));
    t.ok(file, `npm run ${name} (${command}) runs a command whose --help is tested above`);
  }
});

for (const name of Object.keys(SCRIPTS).filter((name) => !TOOL_SCRIPTS[name])) {
  t.test(`npm run ${name} -- --help → its usage, not its work`, async (t) => {
    const help = spawnSync('npm', ['run', '--silent', name, '--', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    t.equal(help.status, 0, help.stderr);
    t.match(help.stdout, /usage:|\.sh\b/);
    t.ok(help.stdout.length < 8192, `a usage text (${help.stdout.length} characters)`);
  });
}
