/**
 * The ceiling: a bare Koa server answering captured product responses from memory, byte for byte, with no
 * routing, auth, session or store. Run as its own process: `node --import tsx baseline.ts PAYLOADS.json`;
 * prints `READY <port>` when listening. `GET /b/<scenario>/<n>` answers payload n of that scenario.
 */
import Koa from 'koa';
import { readFileSync } from 'node:fs';
import { parseCli } from '../cli';

const { positionals } = parseCli(
  `usage: node --import tsx scripts/bench/baseline.ts PAYLOADS.json

The bench's baseline: a bare Koa server answering the captured payloads; prints READY <port> when listening.`,
  {},
  { positionals: true },
);
if (positionals.length !== 1) {
  process.stderr.write('baseline.ts takes one PAYLOADS.json (see --help)\n');
  process.exit(2);
}
const payloads: Record<string, string[]> = JSON.parse(readFileSync(positionals[0], 'utf8'));
const bytes = new Map<string, Buffer[]>(Object.entries(payloads).map(([k, list]) => [k, list.map((s) => Buffer.from(s))]));

const app = new Koa();
app.use(async function answerFromMemory(ctx) {
  const [, , scenario, n] = ctx.path.split('/');
  const list = bytes.get(scenario);
  const body = list?.[Number(n) % list.length];
  if (!body) {
    ctx.status = 404;
    return;
  }
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = body;
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`READY ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
