import t, { type Test } from 'tap';
import jwt from 'jsonwebtoken';
import { decodeSession } from '../../src/http/session';
import { runConsistencyCheck } from '../../scripts/consistency/check-run';
import { aFramework, DAY } from '../fixtures/frameworks';
import { CookieJar, request } from '../fixtures/server';
import { aTender, belowThresholdConfig } from '../fixtures/tenders';
import { ENGINE, HEARTBEAT_TTL_MS, startTestCluster } from './fixtures';

const API = '/api/2.5';

/** A causal position far ahead of anything the store has, in the engine's own token format. */
const FORGED_POSITION = 4_000_000_000;
const forgedToken =
  ENGINE === 'mongodb' ? { clusterTime: null, operationTime: { $timestamp: { t: FORGED_POSITION, i: 1 } } } : { seq: FORGED_POSITION };

/** Tender periods relative to the nodes' real clock. */
const tenderNow = (now: Date) =>
  aTender({
    enquiryPeriod: { endDate: new Date(now.getTime() + 10 * DAY).toISOString() },
    tenderPeriod: { endDate: new Date(now.getTime() + 20 * DAY).toISOString() },
  });

t.test(`three API nodes sharing one ${ENGINE} store and one Redis`, async (t) => {
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

  t.test("node B's kept anonymous view of an object gives way at once to a write made on node A", async (t) => {
    const jar = new CookieJar();
    const created = await request(a.url, 'POST', `${API}/frameworks`, { key: 'broker', jar, body: { data: aFramework(new Date()) } });
    const { id } = created.body.data;
    const readOnB = async () => (await request(b.url, 'GET', `${API}/frameworks/${id}`, { jar })).body.data.title;
    t.equal(await readOnB(), created.body.data.title);
    t.equal(await readOnB(), created.body.data.title, 'served from the kept view');
    const patch = { key: 'broker', jar, token: created.body.access.token, body: { data: { title: 'changed on node A' } } };
    t.equal((await request(a.url, 'PATCH', `${API}/frameworks/${id}`, patch)).status, 200);
    t.equal(await readOnB(), 'changed on node A');
  });

  t.test('a forged cookie is ignored: a fresh session, and the request succeeds', async (t) => {
    const forged = jwt.sign({ n: 'ghost-node', c: forgedToken }, 'not-the-cluster-secret-at-all', { algorithm: 'HS256' });
    const jar = new CookieJar();
    jar.session = forged;
    const reply = await request(b.url, 'GET', `${API}/frameworks`, { jar });
    t.equal(reply.status, 200);
    const claims = decodeSession(jar.session, cluster.sessionSecret);
    t.equal(claims?.node, b.id);
    t.notMatch(JSON.stringify(claims?.causal), String(FORGED_POSITION), 'the forged causal position is not kept');
  });

  t.test('concurrent creates on all three nodes get unique tenderID and prettyID', async (t) => {
    const now = new Date();
    const perNode = 8;
    const creates = (path: string, body: () => unknown) =>
      Promise.all(
        cluster.api.flatMap((node) =>
          Array.from({ length: perNode }, () => request(node.url, 'POST', `${API}/${path}`, { key: 'broker', body: body() })),
        ),
      );
    const [tenders, frameworks] = await Promise.all([
      creates('tenders', () => ({ data: tenderNow(now), config: belowThresholdConfig() })),
      creates('frameworks', () => ({ data: aFramework(now) })),
    ]);
    t.same(
      [...new Set([...tenders, ...frameworks].map((r) => r.status))],
      [201],
      tenders.find((r) => r.status !== 201)?.text ?? 'all created',
    );
    const tenderIDs = tenders.map((r) => r.body.data.tenderID);
    const prettyIDs = frameworks.map((r) => r.body.data.prettyID);
    t.equal(new Set(tenderIDs).size, 3 * perNode, 'no tenderID handed out twice');
    t.equal(new Set(prettyIDs).size, 3 * perNode, 'no prettyID handed out twice');
  });

  t.test('the consistency checker finds 0 violations on the healthy cluster', async (t) => {
    const summary = await runConsistencyCheck({ targets: cluster.api.map((n) => n.url), clients: 8, operations: 25, seconds: 120 });
    t.equal(summary.violations.total(), 0, JSON.stringify(summary.violations.examples));
    t.equal(summary.operations.failed, 0);
    const done = Object.values(summary.operations).reduce((a, b) => a + b, 0);
    t.equal(done, 8 * 25, 'every client ran all its operations');
    t.ok(
      summary.operations.patch > 0 && summary.operations.readOther > 0 && summary.operations.feed > 0,
      JSON.stringify(summary.operations),
    );
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
    t.same(
      decodeSession(jar.session, cluster.sessionSecret)?.causal,
      decodeSession(killedCookie, cluster.sessionSecret)?.causal,
      'the new cookie keeps the causal token',
    );
    const retried = await request(a.url, 'GET', `${API}/frameworks/${id}`, { jar });
    t.equal(retried.status, 200);
    t.equal(retried.body.data.title, 'written on one node');
  });
});
