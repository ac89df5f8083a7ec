import t from 'tap';
import pino from 'pino';
import { Writable } from 'node:stream';
import { startTestServer } from '../../fixtures/server';

t.test('access logs name the broker and route, never the key, the owner token or the cookie', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const server = await startTestServer({ logger: pino({ level: 'info' }, sink) });
  const token = 'f'.repeat(32);
  await server.request('GET', `/api/2.5/constants?acc_token=${token}`, { key: 'broker1', headers: { 'x-access-token': token } });
  await server.request('POST', '/api/2.5/frameworks', { key: 'broker2', token, tokenIn: 'body', body: { data: {} } });
  await server.request('GET', '/api/2.5/nothing', { key: 'broker3', basic: true });
  await server.close();

  const log = lines.join('');
  t.ok(lines.length >= 3, 'one line per request');
  const entry = JSON.parse(lines.find((l) => l.includes('"broker1"'))!);
  t.match(entry, { msg: 'request', method: 'GET', route: '/api/2.5/constants', status: 200, broker: 'broker1' });
  t.match(entry.requestId, /^[0-9a-f-]{36}$/);
  t.notMatch(log, token, 'no owner token');
  t.notMatch(log, /Bearer|Basic |YnJva2VyM/, 'no credentials');
  t.notMatch(log, /SESSION=|eyJ/, 'no cookie');
});
