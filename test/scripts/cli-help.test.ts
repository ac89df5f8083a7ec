import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

// Some 50 processes, each loading tsx and its script; on 2 busy shared cores one takes up to 8 s.
t.setTimeout(600_000);

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
  ['scripts/ocdskit-compile.sh', ['bash']],
  ['scripts/schemathesis.sh', ['bash']],
  ['scripts/validate-k8s.sh', ['bash']],
  ['cluster/mongo-replica-set.sh', ['bash']],
];

const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** package.json scripts that are a tool's own command: `--help` is the tool's (tsc, tap, eslint, prettier). */
const TOOL_SCRIPTS: Record<string, string> = { build: 'tsc', typecheck: 'tsc', test: 'tsc', lint: 'eslint', format: 'prettier' };

/** The command a package.json script runs, as a file of COMMANDS. */
const commandOf = (name: string) => COMMANDS.find(([script]) => new RegExp(`(^|[ /])${script}( |$)`).test(SCRIPTS[name]))?.[0];

/** `npm run NAME -- ARG`, as the README's users run it: proves the script's wiring as well as the command. */
const npmRun = (name: string, arg: string) =>
  spawnSync('npm', ['run', '--silent', name, '--', arg], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

/** The command itself, for those no package.json script runs. */
const direct = (runner: string[], script: string, arg: string) => {
  const [cmd, ...args] = runner;
  return spawnSync(cmd, [...args, join(ROOT, script), arg], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
};

t.test('every package.json script is a tool or runs a command of this file', async (t) => {
  for (const [name, command] of Object.entries(SCRIPTS)) {
    const tool = TOOL_SCRIPTS[name];
    if (tool) t.match(command, new RegExp(`^${tool} `), `${name} runs ${tool}`);
    else t.ok(commandOf(name), `npm run ${name} (${command}) runs a command whose --help is tested below`);
  }
});

const scriptNames = Object.keys(SCRIPTS).filter((name) => !TOOL_SCRIPTS[name]);

for (const [script, runner] of COMMANDS) {
  const name = scriptNames.find((name) => commandOf(name) === script);
  const run = (arg: string) => (name ? npmRun(name, arg) : direct(runner, script, arg));
  const how = name ? `npm run ${name} --` : script;
  t.test(`${how} --help → its usage on stdout, exit 0; a wrong option → named with the usage on stderr, exit 2`, async (t) => {
    const help = run('--help');
    t.equal(help.status, 0, help.stderr);
    t.match(help.stdout, /usage:|\.sh\b/);
    t.ok(help.stdout.length < 8192, `a usage text, not the command's work (${help.stdout.length} characters)`);
    const wrong = run('--no-such-option');
    t.equal(wrong.status, 2, wrong.stderr);
    t.match(wrong.stderr, /no-such-option/);
    t.match(wrong.stderr, help.stdout.split('\n')[0].trim());
  });
}

// Scripts that run a command another script already covers, with arguments of their own (bench:ci is `run.ts --ci`).
for (const name of scriptNames.filter((name) => scriptNames.find((other) => commandOf(other) === commandOf(name)) !== name)) {
  t.test(`npm run ${name} -- --help → its usage, exit 0`, async (t) => {
    const help = npmRun(name, '--help');
    t.equal(help.status, 0, help.stderr);
    t.match(help.stdout, /usage:/);
    t.ok(help.stdout.length < 8192, `a usage text, not the command's work (${help.stdout.length} characters)`);
  });
}
