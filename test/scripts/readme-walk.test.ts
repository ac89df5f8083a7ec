import t from 'tap';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../cluster/free-port';
import { loadConfig } from '../../src/config';
import { freshMongoDatabase } from '../fixtures/server';

const ROOT = join(__dirname, '../..');
// A node started from the sources, then the walk's 12 requests and its live feed's 5 s: 45 s at a load average of 17.
t.setTimeout(300_000);
const HEADING = '### A first tender, step by step';

/** The fenced `sh` blocks of the README's walk (its HEADING up to the next heading), in order, as written. */
function walkBlocks(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(HEADING);
  if (start < 0) throw new Error(`README.md has no "${HEADING}"`);
  const rest = readme.slice(start + HEADING.length);
  const section = rest.slice(0, rest.search(/\n#{1,3} /));
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** What one block printed, and the exit code of its last command. */
interface Step {
  out: string;
  code: number;
}

/**
 * Runs the blocks one after another in one bash, as a reader pastes them into one shell, in an empty directory,
 * with only API set from outside (the first block's `API=${API:-…}` keeps it); each block's output is told apart by
 * a marker line before it and its exit code after it.
 */
async function runWalk(blocks: string[], api: string, cwd: string): Promise<Step[]> {
  const script = blocks.map((block, i) => `echo '@@step ${i}'\n${block}\necho "@@exit $?"`).join('\n');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile('bash', ['-c', script], { cwd, env: { ...process.env, API: api }, timeout: 120_000 }, (err, out, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out),
    ),
  );
  return blocks.map((_, i) => {
    const m = new RegExp(`^@@step ${i}\\n([\\s\\S]*?)^@@exit (\\d+)$`, 'm').exec(stdout);
    if (!m) throw new Error(`block ${i + 1} printed no exit code:\n${stdout}`);
    return { out: m[1], code: Number(m[2]) };
  });
}

/** The JSON documents a step printed, one a line. */
const jsonLines = (step: Step): any[] =>
  step.out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

t.test("the README's default API address is where npm start serves on its defaults", async (t) => {
  const [first] = walkBlocks();
  const config = loadConfig({});
  t.match(first, new RegExp(`^API=\\$\\{API:-http://${config.host}:${config.port}/api/2\\.5\\}$`, 'm'));
});

t.test("the README's first tender walk, run as written against a node: every step answers what the README says", async (t) => {
  const blocks = walkBlocks();
  t.equal(blocks.length, 7, 'index, create, activate, two reads, feed, live feed, document');

  const dir = mkdtempSync(join(tmpdir(), 'registry-readme-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const storeUrl = process.env.MONGODB_URL ? freshMongoDatabase(process.env.MONGODB_URL) : `sqlite:${join(dir, 'registry.db')}`;
  // The node as npm start runs it, on its defaults but the port and the store.
  const node = spawn(process.execPath, ['--import=tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), STORE_URL: storeUrl, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(async () => {
    if (node.exitCode !== null) return;
    node.kill('SIGTERM');
    await once(node, 'exit');
  });
  let log = '';
  node.stdout.setEncoding('utf8');
  while (!log.includes('"listening"')) {
    if (node.exitCode !== null) throw new Error(`the node exited: ${log}`);
    log += (await once(node.stdout, 'data'))[0];
  }
  node.stdout.resume();

  const api = `http://127.0.0.1:${port}/api/2.5`;
  const work = join(dir, 'walk');
  mkdirSync(work);
  const [index, create, activate, reads, feed, live, upload] = await runWalk(blocks, api, work);

  t.test('the index', async (t) => {
    t.equal(index.code, 0);
    const [body] = jsonLines(index);
    t.match(body.data.collections, [{ name: 'frameworks' }]);
    t.ok(
      body.data.collections.some((c: { name: string; href: string }) => c.name === 'tenders' && c.href === `${api}/tenders`),
      'lists the tenders feed',
    );
    t.equal(body.data.openapi, `${api}/openapi.json`);
  });

  const created = jsonLines(create).at(-1);
  const id: string = created.data.id;
  const token: string = created.access.token;
  t.test('create: a draft and its owner token, which ID and TOKEN hold', async (t) => {
    t.equal(create.code, 0, create.out);
    t.equal(created.data.status, 'draft');
    t.match(id, /^[0-9a-f]{32}$/);
    t.match(token, /^[0-9a-f]{32}$/);
    t.match(created.data.lots, [{ id: '1'.repeat(32) }]);
  });

  t.test('activate: the owner moves it to active.enquiries', async (t) => {
    t.equal(activate.code, 0);
    const [body] = jsonLines(activate);
    t.equal(body.data.id, id, 'the created tender: ID was set');
    t.equal(body.data.status, 'active.enquiries', 'TOKEN was accepted');
  });

  t.test("reads: the owner's broker and anyone see the same public tender, without its token", async (t) => {
    t.equal(reads.code, 0);
    const [owner, anyone] = jsonLines(reads);
    t.equal(owner.data.id, id);
    t.equal(owner.data.status, 'active.enquiries');
    t.same(anyone.data, owner.data);
    t.notOk(reads.out.includes(token), 'the owner token is in neither view');
  });

  t.test('the feed lists it, newest first, with the fields asked', async (t) => {
    t.equal(feed.code, 0);
    const [body] = jsonLines(feed);
    t.match(body.data[0], { id, status: 'active.enquiries', tenderID: created.data.tenderID });
    t.ok(body.next_page.offset, 'a next page');
  });

  t.test('the live feed streams its entry, and curl ends it after --max-time (exit 28)', async (t) => {
    t.equal(live.code, 28, 'curl: operation timed out');
    const events = [...live.out.matchAll(/^id: (\S+)\ndata: (.*)$/gm)].map((m) => JSON.parse(m[2]));
    t.match(events, [{ id }]);
  });

  t.test('the document: uploaded by the owner, downloaded from its url as sent', async (t) => {
    t.equal(upload.code, 0);
    const [body] = jsonLines(upload);
    const md5 = createHash('md5').update('Tender notice\n').digest('hex');
    t.match(body.data, { title: 'notice.txt', format: 'text/plain', hash: `md5:${md5}`, author: 'tender_owner' });
    t.ok(body.data.url.startsWith(`${api}/tenders/${id}/documents/`), body.data.url);
    t.equal(
      upload.out
        .split('\n')
        .filter((line) => !line.startsWith('{'))
        .join('\n'),
      'Tender notice\n',
      'the download is the file',
    );
  });
});
