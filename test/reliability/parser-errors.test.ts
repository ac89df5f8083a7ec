import t from 'tap';
import { startTestServer } from '../fixtures/server';

t.test("headers over Node's 16 KB limit → 431 in the error format, not an empty body", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const reply = await server.request('GET', '/api/2.5/frameworks', { headers: { 'x-access-token': 'z'.repeat(20_000) } });
  t.equal(reply.status, 431);
  t.same(reply.body, {
    status: 'error',
    errors: [{ location: 'header', name: 'headers', description: 'Request header fields too large' }],
  });
});
