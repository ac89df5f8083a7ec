import t from 'tap';
import Koa from 'koa';
import { createServer } from 'node:http';
import { errorRenderer } from '../../../src/http/errors';
import { startTestServer, type TestServer } from '../../fixtures/server';
import { koaHandler } from '../../../src/http/koa-handler';

let server: TestServer;
t.before(async () => {
  server = await startTestServer({ env: { BODY_LIMIT: '2048' } });
});
t.teardown(() => server.close());

const errorBody = (status: number, location: string, name: string, description: unknown) => ({
  status,
  body: { status: 'error', errors: [{ location, name, description }] },
});

t.test('an unknown path → 404 url/not_found "Not Found"', async (t) => {
  const res = await server.request('GET', '/api/2.5/nothing-here');
  t.match(res, errorBody(404, 'url', 'not_found', 'Not Found'));
});

t.test('a method the resource does not have → 405 url/method_not_allowed', async (t) => {
  const res = await server.request('DELETE', '/api/2.5/constants');
  t.match(res, errorBody(405, 'url', 'method_not_allowed', 'Method Not Allowed'));
});

t.test('malformed JSON → 422 body/data with the position, as simplejson words it', async (t) => {
  const res = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', raw: '{"data": ' });
  t.match(res, errorBody(422, 'body', 'data', 'Expecting value: line 1 column 10 (char 9)'));
  const single = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', raw: "{'data': 1}" });
  t.match(single, errorBody(422, 'body', 'data', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'));
});

t.test('a body that is not JSON by content type → 415 header/Content-Type', async (t) => {
  const res = await server.request('PATCH', `/api/2.5/frameworks/${'f'.repeat(32)}`, {
    key: 'broker',
    raw: 'data=1',
    contentType: 'application/x-www-form-urlencoded',
  });
  t.match(res, errorBody(415, 'header', 'Content-Type', "Content-Type header should be one of ['application/json']"));
});

t.test(
  'a form body on a POST the reference routes by its body → 422 body/data, the body read first (tender-post-attempt.http)',
  async (t) => {
    const form = { key: 'broker', raw: 'data', contentType: 'application/x-www-form-urlencoded' };
    for (const kind of ['tenders', 'frameworks', 'submissions']) {
      t.match(
        await server.request('POST', `/api/2.5/${kind}`, form),
        errorBody(422, 'body', 'data', 'Expecting value: line 1 column 1 (char 0)'),
        kind,
      );
    }
    const notData = await server.request('POST', '/api/2.5/tenders', { ...form, raw: '[1]' });
    t.match(notData, errorBody(422, 'body', 'data', 'Data not available'));
    const json = await server.request('POST', '/api/2.5/tenders', { ...form, raw: '{"data": {}}' });
    t.match(
      json,
      errorBody(415, 'header', 'Content-Type', "Content-Type header should be one of ['application/json']"),
      'JSON text under another type',
    );
  },
);

t.test('a body over the configured limit → 413 body/data, nothing read past the limit', async (t) => {
  const res = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', body: { data: { title: 'x'.repeat(4096) } } });
  t.match(res, errorBody(413, 'body', 'data', 'Request body exceeds the limit of 2048 bytes'));
});

t.test('every error response is JSON and carries the SESSION cookie', async (t) => {
  const res = await server.request('GET', '/api/2.5/nothing-here');
  t.match(res.headers.get('content-type'), /application\/json/);
  t.match(res.headers.get('set-cookie'), /^SESSION=[^;]+; Path=\/$/);
});

t.test('opt_pretty renders with an indent of 4, errors included', async (t) => {
  const res = await server.request('GET', '/api/2.5/nothing?opt_pretty=1');
  t.match(res.text, /^\{\n {4}"status": "error",/);
});

t.test('an unexpected exception → 500 with a generic body, never a stack', async (t) => {
  const logged: unknown[] = [];
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.log = { error: (o: unknown) => logged.push(o) };
    await next();
  });
  app.use(errorRenderer());
  app.use(() => {
    throw new Error('secret internals: token table row 12');
  });
  const http = createServer(koaHandler(app));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const res = await fetch(`http://127.0.0.1:${(http.address() as { port: number }).port}/x`);
  const text = await res.text();
  http.close();
  t.equal(res.status, 500);
  t.same(JSON.parse(text), {
    status: 'error',
    errors: [{ location: 'url', name: 'internal_server_error', description: 'Internal Server Error' }],
  });
  t.notMatch(text, /secret internals/);
  t.equal(logged.length, 1, 'the stack is logged');
});

t.test('JSON nested deeper than 32 levels → 422 before any handler sees it', async (t) => {
  const deep = '{"data":'.repeat(40) + '1' + '}'.repeat(40);
  const res = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', raw: deep });
  t.match(res, errorBody(422, 'body', 'data', 'JSON nested deeper than 32 levels'));
});

t.test('an unknown field alone → one Rogue field error, not the missing required fields (framework_blanks.py)', async (t) => {
  for (const data of [{ invalid_field: 1 }, { frameworkType: 'dynamicPurchasingSystem', invalid_field: 'invalid_value' }]) {
    const res = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', body: { data } });
    t.same(
      res.body,
      { status: 'error', errors: [{ location: 'body', name: 'invalid_field', description: 'Rogue field' }] },
      JSON.stringify(data),
    );
  }
  const wrongType = await server.request('POST', '/api/2.5/frameworks', { key: 'broker', body: { data: { title: 5 } } });
  t.same(
    wrongType.body.errors,
    [{ location: 'body', name: 'title', description: ["Couldn't interpret '5' as string."] }],
    'a value of the wrong type alike',
  );
  const missing = await server.request('POST', '/api/2.5/frameworks', {
    key: 'broker',
    body: { data: { frameworkType: 'dynamicPurchasingSystem', title_ru: 'x' } },
  });
  t.ok(
    missing.body.errors.some((e: { name: string }) => e.name === 'procuringEntity'),
    'with no such error the required fields are listed',
  );
});
