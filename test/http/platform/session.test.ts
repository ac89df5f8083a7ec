import t from 'tap';
import { decodeSession, encodeSession } from '../../../src/http/session';
import { CookieJar, request, startTestServer, type TestServer } from '../../fixtures/server';

let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const SECRET = 'test-secret-test-secret';

t.test('every response sets SESSION=…; Path=/ naming this node', async (t) => {
  const res = await server.request('GET', '/api/2.5/constants', { jar: new CookieJar() });
  const m = /^SESSION=([^;]+); Path=\/$/.exec(res.headers.get('set-cookie') ?? '');
  t.ok(m, 'the cookie is set');
  t.equal(decodeSession(m![1], SECRET)?.node, 'test-node');
});

t.test('the cookie round-trips the causal token', async (t) => {
  const value = encodeSession({ node: 'n1', causal: { seq: 42 } }, SECRET);
  t.same(decodeSession(value, SECRET), { node: 'n1', causal: { seq: 42 } });
});

t.test('a forged or malformed cookie is ignored: the request succeeds with a fresh session', async (t) => {
  for (const bad of [encodeSession({ node: 'test-node', causal: { seq: 1 } }, 'another-secret-entirely'), 'garbage', '']) {
    const res = await request(server.url, 'GET', '/api/2.5/constants', { headers: { cookie: `SESSION=${bad}` } });
    t.equal(res.status, 200);
    t.match(res.headers.get('set-cookie'), /^SESSION=/);
  }
});

t.test('a cookie naming a node that is not alive → 412 precondition with a new cookie that keeps the causal token', async (t) => {
  const jar = new CookieJar();
  await server.request('GET', '/api/2.5/constants', { jar });
  const { causal } = decodeSession(jar.session, SECRET)!;
  const gone = encodeSession({ node: 'node-that-died', causal }, SECRET);
  const res = await request(server.url, 'GET', '/api/2.5/constants', { headers: { cookie: `SESSION=${gone}` } });
  t.equal(res.status, 412);
  t.same(res.body, { status: 'error', errors: [{ location: 'url', name: 'precondition', description: 'Precondition Failed' }] });
  const fresh = decodeSession(/SESSION=([^;]+)/.exec(res.headers.get('set-cookie')!)![1], SECRET);
  t.same(fresh, { node: 'test-node', causal });
  const retry = await request(server.url, 'GET', '/api/2.5/constants', { headers: { cookie: `SESSION=${encodeSession(fresh!, SECRET)}` } });
  t.equal(retry.status, 200, 'the retry with the new cookie succeeds');
});

t.test('a client echoing the whole Set-Cookie value (with Path) is understood', async (t) => {
  const value = encodeSession({ node: 'node-that-died', causal: { seq: 1 } }, SECRET);
  const res = await request(server.url, 'GET', '/api/2.5/constants', { headers: { cookie: `SESSION=${value}; Path=/` } });
  t.equal(res.status, 412, 'the cookie was read (it names a dead node)');
});

t.test('a seen cookie with its signature altered is ignored, not taken from memory', async (t) => {
  const jar = new CookieJar();
  await server.request('GET', '/api/2.5/constants', { jar });
  const [header, payload] = jar.session!.split('.');
  const forged = `${header}.${payload}.${'A'.repeat(43)}`;
  t.equal(decodeSession(forged, SECRET), null);
  const claims = decodeSession(jar.session, SECRET)!;
  const other = encodeSession({ node: 'node-that-died', causal: claims.causal }, SECRET);
  const [, otherPayload, otherSignature] = other.split('.');
  t.equal(decodeSession(`${header}.${otherPayload}.${jar.session!.split('.')[2]}`, SECRET), null, 'a known signature on other claims');
  t.ok(otherSignature);
});
