import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { newShared, SimulatedClient } from '../../scripts/consistency/simulated-client';

/**
 * The checker's own judgement of a PATCH answered 409 (issue 29): a conflict is a monotonic-writes violation only when
 * the session's earlier attempts were all answered. A node killed after its commit and before its answer leaves the
 * client retrying on another node, whose view may still be the session's last acknowledged version.
 */

type Step = 'apply' | ((req: IncomingMessage, res: ServerResponse) => void);

/** A stand-in node: every POST makes framework `f1`; each PATCH takes the next step ('apply' once they run out). */
async function stubNode(t: Test, patches: Step[]) {
  let version = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST') return reply(res, 201, { data: { id: 'f1', dateModified: at(0) }, access: { token: 't' } });
      const step = patches.shift() ?? 'apply';
      if (step !== 'apply') return step(req, res);
      const { description } = (JSON.parse(body) as { data: { description: string } }).data;
      reply(res, 200, { data: { id: 'f1', description, dateModified: at(++version) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const shared = newShared();
  const client = new SimulatedClient(0, () => [`http://127.0.0.1:${(server.address() as AddressInfo).port}`], shared);
  return { client, shared };
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const conflict: Step = (_req, res) =>
  reply(res, 409, { status: 'error', errors: [{ location: 'body', name: 'data', description: 'Conflict' }] });
/** The node dies after its commit, before its answer: the client sees the connection drop. */
const dropped: Step = (req) => req.socket.destroy();

t.test('a 409 after an unanswered attempt is the write meeting itself, not a violation', async (t) => {
  const { client, shared } = await stubNode(t, ['apply', dropped, conflict]);
  await client.create();
  await t.rejects(client.patch(), /patch: 409/, 'a failed operation, as any write whose outcome is unknown');
  t.equal(shared.stats.unreachable, 1, 'the dropped attempt was retried');
  t.equal(shared.stats.writesRepeated, 1, 'and counted as a write whose outcome was unknown');
  t.equal(shared.violations.total(), 0, JSON.stringify(shared.violations.examples));
});

t.test('the same 409 with every attempt answered is a monotonic-writes violation', async (t) => {
  const { client, shared } = await stubNode(t, ['apply', conflict]);
  await client.create();
  await client.patch();
  t.equal(shared.violations.counts['monotonic-writes'], 1, JSON.stringify(shared.violations.examples));
});

const unavailable =
  (description: string): Step =>
  (_req, res) =>
    reply(res, 503, { status: 'error', errors: [{ location: 'url', name: 'store', description }] });

t.test('a 409 after a 503 that says the outcome is unknown is no violation', async (t) => {
  const unknown = unavailable(
    'Service Unavailable: the store did not confirm whether the change was made; read the object before sending it again',
  );
  const { client, shared } = await stubNode(t, ['apply', unknown, conflict]);
  await client.create();
  await t.rejects(client.patch(), /patch: 503/);
  await t.rejects(client.patch(), /patch: 409/);
  t.equal(shared.violations.total(), 0, JSON.stringify(shared.violations.examples));
});

t.test('a 409 after a plain "Service Unavailable" (known not written) is a monotonic-writes violation', async (t) => {
  const { client, shared } = await stubNode(t, ['apply', unavailable('Service Unavailable'), conflict]);
  await client.create();
  await t.rejects(client.patch(), /patch: 503/);
  await client.patch();
  t.equal(shared.violations.counts['monotonic-writes'], 1, JSON.stringify(shared.violations.examples));
});
