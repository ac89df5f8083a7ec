import t from 'tap';
import { loadObject } from '../../../src/domain/core/objects';
import { updateOf } from '../../../src/domain/save-rules';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { multipartFile, rawRequest, uploadRoutes, type UploadRoute } from '../../fixtures/uploads';

const LIMIT = 8192;

let server: TestServer;
let routes: UploadRoute[];
t.before(async () => {
  server = await startTestServer({ env: { BODY_LIMIT: String(LIMIT) } });
  routes = await uploadRoutes(server);
});
t.teardown(() => server.close());

const upload = (route: UploadRoute, body: Buffer, contentType: string, headers: Record<string, string> = {}) =>
  rawRequest(server.url, 'POST', `${route.path}?acc_token=${route.token}`, body, {
    authorization: `Bearer ${route.key}`,
    'content-type': contentType,
    ...headers,
  });

t.test('a multipart body that ends before its closing boundary → 422 on every document route; the node answers on', async (t) => {
  for (const route of routes) {
    const { body, contentType } = multipartFile('partial content');
    const cut = body.subarray(0, body.length - 12);
    t.match(await upload(route, cut, contentType), error(422, 'body', 'file', 'Could not read the multipart body'), route.kind);
    t.equal((await server.request('GET', '/healthz')).status, 200, `${route.kind}: alive`);
  }
});

t.test('multipart/form-data without a boundary, or with an empty one → 422', async (t) => {
  const { body } = multipartFile('content');
  for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data;boundary']) {
    t.match(
      await upload(routes[0], body, contentType),
      error(422, 'header', 'Content-Type', 'Content-Type multipart/form-data needs a boundary'),
      contentType,
    );
  }
  // A quoted empty boundary parses, and then no part of the body matches it.
  t.match(
    await upload(routes[0], body, 'multipart/form-data; boundary=""'),
    error(422, 'body', 'file', 'Could not read the multipart body'),
  );
});

t.test(`a file of exactly BODY_LIMIT (${LIMIT}) bytes is stored; one byte more → 413`, async (t) => {
  const exact = multipartFile(Buffer.alloc(LIMIT, 'a'));
  const stored = await upload(routes[0], exact.body, exact.contentType);
  t.equal(stored.status, 201, stored.text);
  const over = multipartFile(Buffer.alloc(LIMIT + 1, 'a'));
  const refused = await upload(routes[0], over.body, over.contentType);
  t.match(refused, error(413, 'body', 'file', `File exceeds the limit of ${LIMIT} bytes`));
  t.equal(refused.headers.get('connection'), 'close', 'the rest of a refused body is not waited for');
  const huge = multipartFile(Buffer.alloc(LIMIT * 50, 'a'));
  t.match(await upload(routes[0], huge.body, huge.contentType), error(413, 'body', 'file', `File exceeds the limit of ${LIMIT} bytes`));
});

t.test('the first part named file is the upload, after or before other file parts', async (t) => {
  const boundary = 'b0undary';
  const part = (name: string, content: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
  const body = Buffer.from(`${part('other', 'not this')}${part('file', 'this one')}${part('file', 'nor this')}--${boundary}--\r\n`);
  const reply = await upload(routes[0], body, `multipart/form-data; boundary=${boundary}`);
  t.equal(reply.status, 201, reply.text);
  t.equal(reply.body.data.title, 'file.txt');
  const url = new URL(reply.body.data.url);
  t.equal(await (await fetch(`${server.url}${url.pathname}${url.search}`)).text(), 'this one');
});

t.test('a stored document url is built on the configured base, never on the client Host or X-Forwarded-Host', async (t) => {
  const { body, contentType } = multipartFile('hosted');
  const reply = await upload(routes[0], body, contentType, { host: 'evil.example', 'x-forwarded-host': 'evil2.example' });
  t.equal(reply.status, 201, reply.text);
  t.ok(reply.body.data.url.startsWith(`${server.config.storedUrlBase}/api/2.5/`), reply.body.data.url);
  t.notMatch(reply.text, /evil/);

  const configured = await startTestServer({ env: { PUBLIC_BASE_URL: 'https://registry.example/' } });
  t.teardown(() => configured.close());
  const [route] = await uploadRoutes(configured);
  const elsewhere = await rawRequest(configured.url, 'POST', `${route.path}?acc_token=${route.token}`, body, {
    authorization: `Bearer ${route.key}`,
    'content-type': contentType,
    'x-forwarded-host': 'evil.example',
  });
  t.match(
    elsewhere.body.data.url,
    /^https:\/\/registry\.example\/api\/2\.5\/frameworks\/[0-9a-f]{32}\/documents\/[0-9a-f]{32}\?download=[0-9a-f]{32}$/,
  );
});

t.test('a download comes as its format where no browser runs it, named in ASCII and UTF-8', async (t) => {
  const cases: [string, string, string, string][] = [
    ['%PDF-1.4', 'application/pdf', 'application/pdf', 'Договір №1.pdf'],
    ['<svg onload="alert(1)"/>', 'image/svg+xml', 'application/octet-stream', 'logo ©.svg'],
    ['alert(1)', 'text/javascript', 'application/octet-stream', 'plain.js'],
  ];
  for (const [content, type, served, filename] of cases) {
    const { body, contentType } = multipartFile(content, { filename, type });
    const document = (await upload(routes[0], body, contentType)).body.data;
    const url = new URL(document.url);
    const download = await fetch(`${server.url}${url.pathname}${url.search}`);
    t.equal(download.headers.get('content-type'), served, type);
    const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
    t.equal(
      download.headers.get('content-disposition'),
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    );
    t.equal(download.headers.get('x-content-type-options'), 'nosniff');
  }
});

t.test('a download of an active type (text/html) is bytes as an attachment; nosniff on every answer', async (t) => {
  const { body, contentType } = multipartFile('<script>alert(1)</script>', { filename: 'page.html', type: 'text/html' });
  const document = (await upload(routes[0], body, contentType)).body.data;
  t.equal(document.format, 'text/html', 'the declared format is kept as data');
  const url = new URL(document.url);
  const download = await fetch(`${server.url}${url.pathname}${url.search}`);
  t.equal(download.headers.get('content-type'), 'application/octet-stream');
  t.equal(download.headers.get('content-disposition'), 'attachment; filename="page.html"; filename*=UTF-8\'\'page.html');
  t.equal(download.headers.get('x-content-type-options'), 'nosniff');
  t.equal(await download.text(), '<script>alert(1)</script>');
  for (const [method, path] of [
    ['GET', '/healthz'],
    ['GET', '/api/2.5/frameworks'],
    ['GET', '/nowhere'],
    ['POST', '/api/2.5/frameworks'],
  ]) {
    const reply = await server.request(method, path);
    t.equal(reply.headers.get('x-content-type-options'), 'nosniff', `${method} ${path} ${reply.status}`);
  }
});

t.test('a stored document url that is not one the API wrote downloads as 404, never 500', async (t) => {
  const route = routes.find((r) => r.kind === 'tenders')!;
  const id = route.path.split('/')[4];
  const session = server.store.session();
  const stored = await loadObject(session, 'tenders', id);
  const planted = ['not a url', 'javascript:alert(1)', '', 42, null, 'http://[::1', 'https://x.example/?download='].map((url, i) => ({
    id: `${'0'.repeat(31)}${i}`,
    title: 'planted.pdf',
    url,
  }));
  await session.commit([updateOf(stored, { ...stored.doc, data: { ...stored.doc.data, documents: planted } }, ['documents'])]);
  for (const document of planted) {
    for (const download of ['x', '', 'not a url']) {
      const reply = await server.request('GET', `${route.path}/${document.id}?download=${encodeURIComponent(download)}`);
      t.match(reply, error(404, 'url', 'download', 'Not Found'), `url ${JSON.stringify(document.url)}, download=${download}`);
    }
  }
});
