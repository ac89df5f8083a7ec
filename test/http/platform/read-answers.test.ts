import t from 'tap';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSession } from '../../../src/http/session';
import { startTestServer, type Reply } from '../../fixtures/server';
import { objectsOfEveryKind, READERS } from '../../fixtures/every-kind';

/**
 * The common reads' answers — an object, and its kind's feed pages, for every reader of every kind, restricted
 * included — headers and bytes pinned to what the app answered before its request frame
 * (docs/performance.md §The request frame), so no guarantee of the middleware stack can drift:
 * test/fixtures/read-answers.json was recorded (`RECORD_READ_ANSWERS=1`) from the stack of separate middlewares.
 * What differs from run to run or engine to engine is replaced: ids by their order of appearance, the listening
 * port, feed offsets (the engine's own), the SESSION cookie's value by the node it names; a body is kept as the
 * digest of its bytes, and `content-length` checked to be its length. Re-recorded 2026-11-29 when small feed pages
 * went as one buffer (docs/performance.md §Feed pages as one buffer): only `transfer-encoding: chunked` became
 * `content-length` in feed answers.
 */
const PINNED = join(__dirname, '../../fixtures/read-answers.json');
const ID = /\b[0-9a-f]{32}\b/g;
const VARYING_HEADERS = new Set(['date', 'connection', 'keep-alive']);

t.test('GET of an object and feed pages: the headers and bytes of every reader of every kind', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const objects = await objectsOfEveryKind(server);
  const answered: Record<string, unknown> = {};
  const ids = new Map<string, string>();
  const normal = (text: string) =>
    text
      .replace(ID, (id) => ids.get(id) ?? (ids.set(id, `<id ${ids.size + 1}>`), `<id ${ids.size}>`))
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, '<origin>')
      .replace(/offset=[^&"]+/g, 'offset=<offset>')
      .replace(/"offset":("[^"]*"|[\d.e+-]+)/g, '"offset":"<offset>"');
  const answer = (reply: Reply) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of reply.headers) {
      if (VARYING_HEADERS.has(name)) continue;
      if (name === 'content-length') {
        // A feed page's length varies with its offsets' text, as its bytes do: pinned as matching them.
        t.equal(Number(value), Buffer.byteLength(reply.text), "content-length is the body's");
        headers[name] = "<the body's bytes>";
      } else if (name === 'set-cookie') {
        const claims = decodeSession(/^SESSION=([^;]+)/.exec(value)?.[1], 'test-secret-test-secret');
        headers[name] = value.replace(/^SESSION=[^;]+/, `SESSION=<signed: node ${claims?.node}>`);
      } else headers[name] = normal(value);
    }
    const text = normal(reply.text);
    return { status: reply.status, headers, bytes: text.length, sha256: createHash('sha256').update(text).digest('hex') };
  };
  const read = async (path: string, key: string) =>
    answer(await server.request('GET', path, { key, headers: { 'x-request-id': 'pinned-read' } }));

  for (const [kind, id, which] of objects) {
    const answers = [];
    for (const round of [1, 2])
      for (const key of READERS) answers.push({ round, reader: key || 'anonymous', ...(await read(`/api/2.5/${kind}/${id}`, key)) });
    answered[`GET ${kind} ${which}`] = answers;
  }
  for (const kind of new Set(objects.map(([kind]) => kind))) {
    const answers = [];
    for (const query of ['', '?opt_fields=status,procuringEntity&limit=3', '?descending=1&opt_fields=status,title&limit=100'])
      for (const key of READERS) answers.push({ query, reader: key || 'anonymous', ...(await read(`/api/2.5/${kind}${query}`, key)) });
    answered[`feed of ${kind}`] = answers;
  }
  answered['GET of an unknown object'] = await read('/api/2.5/tenders/0123456789abcdef0123456789abcdef', '');
  if (process.env.RECORD_READ_ANSWERS === '1') writeFileSync(PINNED, `${JSON.stringify(answered, null, 1)}\n`);
  const pinned = JSON.parse(readFileSync(PINNED, 'utf8')) as Record<string, unknown>;
  t.same(Object.keys(answered), Object.keys(pinned), 'the same reads');
  for (const [read, answers] of Object.entries(pinned)) t.same(answered[read], answers, read);
});
