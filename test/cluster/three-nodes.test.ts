import t, { type Test } from 'tap';
import jwt from 'jsonwebtoken';
import { decodeSession } from '../../src/http/session';
import { runConsistencyCheck } from '../../scripts/consistency/run-check';
import { aFramework } from '../fixtures/frameworks';
import { CookieJar, request } from '../fixtures/server';
import { HEARTBEAT_TTL_MS, startTestCluster } from './fixtures';

const API = '/api/2.5';

t.test('three API nodes sharing one store and one Redis', async (t) => {
  const cluster = await startTestCluster();
  t.teardown(() => cluster.stop());
  const [a, b, c] = cluster.api;
  const nodeOf = (jar: CookieJar) => decodeSession(jar.session, cluster.sessionSecret)?.node;

  async function writeOn(t: Test, url: string, jar: CookieJar) {
    const created = await request(url, 'POST', `${API}/frameworks`, { key: 'broker', jar, body: { data: aFramework(new Date()) } });
    t.equal(created.status, 201);
    const id = created.body.data.id;
    const patched = await request(url, 'PATCH', `${API}/frameworks/${id}`, {
      key: 'broker',
      jar,
      token: created.body.access.token,
      body: { data: { title: 'written on one node' } },
    });
    t.equal(patched.status, 200);
    return id as string;
  }

  t.test("a write on node A is read at once on node B with A's cookie", async (t) => {
    const jar = new CookieJar();
    const id = await writeOn(t, a.url, jar);
    t.equal(nodeOf(jar), a.id);
    const read = await request(b.url, 'GET', `${API}/frameworks/${id}`, { jar });
    t.equal(read.status, 200);
    t.equal(read.body.data.title, 'written on one node');
    t.equal(nodeOf(jar), b.id, 'the new cookie names the node that served');
  });

  t.test('a forged cookie is ignored: a fresh session, and the request succeeds', async (t) => {
    const forged = jwt.sign({ n: 'ghost-node', c: { seq: 1_000_000_000 } }, 'not-the-cluster-secret-at-all', { algorithm: 'HS256' });
    const jar = new CookieJar();
    jar.session = forged;
    const reply = await request(b.url, 'GET', `${API}/frameworks`, { jar });
    t.equal(reply.status, 200);
    const claims = decodeSession(jar.session, cluster.sessionSecret);
    t.equal(claims?.node, b.id);
    t.not(claims?.causal.seq, 1_000_000_000, 'the forged causal position is not kept');
  });

  t.test('the consistency checker finds 0 violations on the healthy cluster', async (t) => {
    const summary = await runConsistencyCheck({ targets: cluster.api.map((n) => n.url), clients: 8, seconds: 4 });
    t.equal(summary.violations.total(), 0, JSON.stringify(summary.violations.examples));
    t.ok(summary.operations.patch > 20, `${summary.operations.patch} patches`);
    t.equal(summary.operations.failed, 0);
  });

  t.test("a killed node's cookie gets 412 with a new cookie; the retry succeeds and sees the write", async (t) => {
    const jar = new CookieJar();
    const id = await writeOn(t, c.url, jar);
    const killedCookie = jar.session;
    await cluster.kill(c.id);
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_TTL_MS + 500));
    const refused = await request(a.url, 'GET', `${API}/frameworks/${id}`, { jar });
    t.equal(refused.status, 412);
    t.same(refused.body, { status: 'error', errors: [{ location: 'url', name: 'precondition', description: 'Precondition Failed' }] });
    t.not(jar.session, killedCookie);
    t.equal(nodeOf(jar), a.id);
    const retried = await request(a.url, 'GET', `${API}/frameworks/${id}`, { jar });
    t.equal(retried.status, 200);
    t.equal(retried.body.data.title, 'written on one node');
  });
});
