import { createHash, sign } from 'node:crypto';
import t from 'tap';
import { signingKeyOf } from '../../../src/security/ed25519';
import { DEV_PUBLIC_KEY, DEV_SEED, DOCSERVICE, docserviceEnv } from '../../fixtures/docservice';
import { DEFAULT_NOW, errorReply as error, request, startTestServer, type Reply, type TestServer } from '../../fixtures/server';
import { activeFramework, createSubmission } from '../../fixtures/frameworks';
import { createLottedTender } from '../../fixtures/tenders';
import { multipartFile, rawRequest } from '../../fixtures/uploads';

/**
 * docs/platform.md §Built-in document service: the reference document service's routes on DOCSERVICE_PORT, its
 * answers and refusals as the reference's tests and tutorial have them (openprocurement.documentservice).
 */
let server: TestServer;
let service: string;
t.before(async () => {
  server = await startTestServer({ env: { ...docserviceEnv, DOCSERVICE_PORT: '0' } });
  service = server.docserviceUrl!;
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const KEY_ID = DEV_PUBLIC_KEY.slice(0, 8);
/** The reference's clients log in to the service with Basic auth (its tutorial: `broker:broker`). */
const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:${key}`).toString('base64')}` });
const md5 = (content: string | Buffer) => createHash('md5').update(content).digest('hex');

/** A URL the service answered, sent to its listener here (its public base is DOCSERVICE). */
const onService = (url: string) => {
  const parsed = new URL(url);
  if (parsed.origin !== DOCSERVICE) throw new Error(`not on the service: ${url}`);
  return `${parsed.pathname}${parsed.search}`;
};
const upload = (path: string, content: string | Buffer, o: { key?: string; filename?: string; type?: string } = {}) => {
  const form = multipartFile(content, { filename: o.filename ?? 'file.txt', type: o.type ?? 'text/plain' });
  return rawRequest(service, 'POST', path, form.body, {
    'content-type': form.contentType,
    ...(o.key === undefined ? basic('broker') : o.key ? basic(o.key) : {}),
  });
};
const get = (path: string) => fetch(`${service}${path}`, { redirect: 'manual' });
const register = (data: unknown, key = 'broker') =>
  request(service, 'POST', '/register', { body: { data }, headers: key ? basic(key) : {} });
/** A `Signature` of `message` by `seed` (the registry's own key unless another), base64. */
const signature = (message: string, seed = DEV_SEED) => sign(null, Buffer.from(message), signingKeyOf(seed)).toString('base64');
/** A download from the API, its redirect not followed. */
const apiDownload = (url: string, as: { key?: string; token?: string } = {}) =>
  fetch(`${server.url}${new URL(url).pathname}${new URL(url).search}${as.token ? `&acc_token=${as.token}` : ''}`, {
    redirect: 'manual',
    headers: as.key ? { authorization: `Bearer ${as.key}` } : {},
  });
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

t.test('GET / answers; other paths and methods are not found', async (t) => {
  const root = await get('/');
  t.equal(root.status, 200);
  t.equal(await root.text(), '');
  for (const path of ['/register', '/upload', '/upload/uuid']) {
    const res = await get(path);
    t.equal(res.status, 404, path);
  }
  t.equal((await fetch(`${server.url}/register`, { method: 'POST' })).status, 404, 'not on the API listener');
});

t.test('POST /upload: the document members, a get_url good for 300 s, and the bytes back by it', async (t) => {
  const reply = await upload('/upload', 'content');
  t.equal(reply.status, 200, reply.text);
  const { data, get_url: getUrl } = reply.body;
  t.same(Object.keys(reply.body).sort(), ['data', 'get_url']);
  t.same(
    { hash: data.hash, format: data.format, title: data.title },
    { hash: `md5:${md5('content')}`, format: 'text/plain', title: 'file.txt' },
  );
  t.equal(reply.headers.get('location'), getUrl);
  const url = new URL(data.url);
  t.match(url.pathname, /^\/get\/[0-9a-f]{32}$/);
  t.same([...url.searchParams.keys()], ['KeyID', 'Signature']);
  t.equal(url.searchParams.get('KeyID'), KEY_ID);
  t.equal(url.searchParams.get('Signature'), signature(`${url.pathname.slice(5)}\0${md5('content')}`), 'signed over key\\0md5');
  const expires = Number(new URL(getUrl).searchParams.get('Expires'));
  t.equal(expires, DEFAULT_NOW.getTime() / 1000 + 300);
  const file = await get(onService(getUrl));
  t.equal(file.status, 200);
  t.equal(await file.text(), 'content');
  t.equal(file.headers.get('content-type'), 'text/plain');
  t.equal(file.headers.get('content-disposition'), 'attachment; filename=file.txt', "the reference's header for a token name");
  t.equal(file.headers.get('x-content-type-options'), 'nosniff');

  server.clock.set(new Date(expires * 1000));
  t.equal((await get(onService(getUrl))).status, 200, 'good at Expires itself');
  server.clock.set(new Date((expires + 1) * 1000));
  t.match(await request(service, 'GET', onService(getUrl)), error(403, 'url', 'Expires', 'Request has expired'), 'never past it');
});

t.test('POST /upload: names and types as the reference keeps them, active types served as bytes', async (t) => {
  const cases: [string, string, string][] = [
    ['Звіт.pdf', 'application/pdf', `attachment; filename=%D0%97%D0%B2%D1%96%D1%82.pdf; filename*=utf-8''%D0%97%D0%B2%D1%96%D1%82.pdf`],
    ['a;b  c.txt', 'text/plain', `attachment; filename=a%3Bb%20%20c.txt; filename*=utf-8''a%3Bb%20%20c.txt`],
    ['my file.txt', 'text/plain', 'attachment; filename="my file.txt"'],
    ['page.html', 'text/html', 'attachment; filename=page.html'],
  ];
  for (const [filename, type, disposition] of cases) {
    const reply = await upload('/upload', '<b>x</b>', { filename, type });
    t.equal(reply.body.data.title, filename);
    t.equal(reply.body.data.format, type);
    const file = await get(onService(reply.body.get_url));
    t.equal(file.headers.get('content-disposition'), disposition, filename);
    t.equal(file.headers.get('content-type'), type === 'text/html' ? 'application/octet-stream' : type);
  }
});

t.test('POST /upload refusals: no key, a wrong key, a key of no broker, no file, too big; two files keep the first', async (t) => {
  const forbidden = error(403, 'url', 'permission', 'Forbidden');
  t.match(await upload('/upload', 'x', { key: '' }), forbidden, 'no key');
  t.match(await upload('/upload', 'x', { key: 'nobody' }), forbidden, 'a wrong key');
  t.match(await upload('/upload', 'x', { key: 'chronograph' }), forbidden, 'not a broker');
  t.match(
    await request(service, 'POST', '/upload', { raw: 'data', contentType: 'application/x-www-form-urlencoded', headers: basic('broker') }),
    error(404, 'body', 'file', 'Not Found'),
  );
  const other = multipartFile('x', { filename: 'a.txt' });
  const renamed = other.body.toString().replace('name="file"', 'name="other"');
  t.match(
    await rawRequest(service, 'POST', '/upload', Buffer.from(renamed), { 'content-type': other.contentType, ...basic('broker') }),
    error(404, 'body', 'file', 'Not Found'),
  );
  const limit = server.config.bodyLimit;
  const big = await upload('/upload', Buffer.alloc(limit + 1, 'a'));
  t.match(big, error(413, 'body', 'file', `File exceeds the limit of ${limit} bytes`));
  t.equal((await upload('/upload', Buffer.alloc(limit, 'a'))).status, 200, 'exactly BODY_LIMIT is stored');

  const boundary = 'b0undary';
  const part = (content: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${content}.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
  const two = Buffer.from(`${part('first')}${part('second')}--${boundary}--\r\n`);
  const both = await rawRequest(service, 'POST', '/upload', two, {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    ...basic('broker'),
  });
  t.equal(both.body.data.title, 'first.txt');
  t.equal(await (await get(onService(both.body.get_url))).text(), 'first');
});

t.test('POST /register then POST /upload/{key}: the tutorial exchange, and each refusal', async (t) => {
  const hash = `md5:${md5('content')}`;
  const registered = await register({ hash, filename: 'file.txt' });
  t.equal(registered.status, 201, registered.text);
  const { upload_url: uploadUrl, data } = registered.body;
  t.equal(registered.headers.get('location'), uploadUrl);
  const key = new URL(uploadUrl).pathname.split('/')[2];
  t.equal(uploadUrl, `${DOCSERVICE}/upload/${key}?${q({ KeyID: KEY_ID, Signature: signature(key) })}`);
  t.same(data, {
    hash,
    filename: 'file.txt',
    url: `${DOCSERVICE}/get/${key}?${q({ KeyID: KEY_ID, Signature: signature(`${key}\0${md5('content')}`) })}`,
  });
  t.equal((await get(`/get/${key}?${q({ Signature: signature(key) })}`)).status, 204, 'registered, not uploaded: no content');

  t.match(await upload(onService(uploadUrl), 'other'), error(403, 'body', 'file', 'Invalid checksum'));
  const done = await upload(onService(uploadUrl), 'content');
  t.equal(done.status, 200, done.text);
  t.equal(done.headers.get('location'), null, 'as the reference: no Location');
  t.same(done.body.data, { url: data.url, hash, format: 'text/plain', title: 'file.txt' });
  t.equal(await (await get(onService(done.body.get_url))).text(), 'content');
  t.match(await upload(onService(uploadUrl), 'content'), error(403, 'url', 'doc_id', 'Content already uploaded'));

  const path = `/upload/${key}`;
  const refusals: [string, string, Reply & object][] = [
    ['no Signature', path, error(403, 'url', 'Signature', 'Not Found') as Reply],
    ['an unknown KeyID', `${path}?KeyID=test`, error(403, 'url', 'KeyID', 'Key Id does not exist') as Reply],
    ['an empty Signature', `${path}?Signature=`, error(403, 'url', 'Signature', 'Signature does not match') as Reply],
    [
      'a Signature that is not base64',
      `${path}?Signature=%D1%82%D0%B5%D1%81%D1%82`,
      error(403, 'url', 'Signature', 'Signature invalid') as Reply,
    ],
    [
      'a foreign signature',
      `${path}?${q({ KeyID: KEY_ID, Signature: signature(key, '11'.repeat(32)) })}`,
      error(403, 'url', 'Signature', 'Signature does not match') as Reply,
    ],
    ['another key', onService(uploadUrl).replace('?', 'a?'), error(403, 'url', 'Signature', 'Signature does not match') as Reply],
    [
      'a key never registered',
      `/upload/${'f'.repeat(32)}?${q({ Signature: signature('f'.repeat(32)) })}`,
      error(404, 'url', 'doc_id', 'Not Found') as Reply,
    ],
  ];
  for (const [name, at, expected] of refusals) t.match(await upload(at, 'content'), expected, name);
  t.match(await upload(onService(uploadUrl), 'content', { key: '' }), error(403, 'url', 'permission', 'Forbidden'), 'no key');
});

t.test('POST /register: a form body too, and the reference hash refusals', async (t) => {
  const hash = `md5:${'0'.repeat(32)}`;
  const form = await request(service, 'POST', '/register', {
    raw: `hash=${encodeURIComponent(hash)}`,
    contentType: 'application/x-www-form-urlencoded',
    headers: basic('broker'),
  });
  t.equal(form.status, 201, form.text);
  t.equal(form.body.data.hash, hash);
  const notFound = error(404, 'body', 'hash', 'Not Found');
  t.match(
    await request(service, 'POST', '/register', {
      raw: 'data',
      contentType: 'application/x-www-form-urlencoded',
      headers: basic('broker'),
    }),
    notFound,
  );
  t.match(await request(service, 'POST', '/register', { raw: '{"data": ', headers: basic('broker') }), notFound, 'malformed JSON');
  t.match(await register('hash'), notFound);
  t.match(await register({ not_hash: 'hash' }), notFound);
  t.match(await register({ hash: 'hash' }), error(422, 'body', 'hash', ['Hash type is not supported.']));
  t.match(await register({ hash: 'md5:hash' }), error(422, 'body', 'hash', ['Hash value is wrong length.']));
  t.match(await register({ hash: `md5:${'o'.repeat(32)}` }), error(422, 'body', 'hash', ['Hash value is not hexadecimal.']));
  t.match(await register({ hash }, ''), error(403, 'url', 'permission', 'Forbidden'));
  t.match(await register({ hash }, 'nobody'), error(403, 'url', 'permission', 'Forbidden'));
});

t.test('GET /get/{key}: the reference refusals, private URLs by the own key only', async (t) => {
  const reply = await upload('/upload', 'content');
  const key = new URL(reply.body.data.url).pathname.split('/')[2];
  const now = DEFAULT_NOW.getTime() / 1000;
  const cases: [string, string, number, string, string][] = [
    ['no Signature', `/get/uuid`, 403, 'Signature', 'Not Found'],
    ['a foreign KeyID, no Expires', `/get/uuid?KeyID=test`, 403, 'KeyID', 'Key Id does permit to get private document'],
    ['an Expires past', `/get/uuid?Expires=1`, 403, 'Expires', 'Request has expired'],
    ['an Expires that is no number', `/get/uuid?Expires=soon`, 403, 'Expires', 'Request has expired'],
    ['Expires, no Signature', `/get/uuid?Expires=2000000000`, 403, 'Signature', 'Not Found'],
    ['an empty Signature', `/get/uuid?Expires=2000000000&Signature=`, 403, 'Signature', 'Signature does not match'],
    ['an unknown KeyID', `/get/uuid?Expires=2000000000&Signature=&KeyID=test`, 403, 'KeyID', 'Key Id does not exist'],
    ['not base64', `/get/${key}?Expires=2000000000&Signature=%D1%82%D0%B5%D1%81%D1%82`, 403, 'Signature', 'Signature invalid'],
    [
      'a foreign signature',
      `/get/${key}?${q({ Expires: String(now + 300), Signature: signature(`${key}\0${now + 300}`, '11'.repeat(32)), KeyID: KEY_ID })}`,
      403,
      'Signature',
      'Signature does not match',
    ],
    [
      'another Expires than signed',
      `/get/${key}?${q({ Expires: String(now + 301), Signature: signature(`${key}\0${now + 300}`) })}`,
      403,
      'Signature',
      'Signature does not match',
    ],
    ['the document url (signed over the hash)', onService(reply.body.data.url), 403, 'Signature', 'Signature does not match'],
    ['a key never stored', `/get/${'f'.repeat(32)}?${q({ Signature: signature('f'.repeat(32)) })}`, 404, 'doc_id', 'Not Found'],
  ];
  for (const [name, path, status, field, text] of cases)
    t.match(await request(service, 'GET', path), error(status, 'url', field, text), name);
  const privately = await get(`/get/${key}?${q({ Signature: signature(key) })}`);
  t.equal(await privately.text(), 'content', 'no Expires: signed over the key alone by the own key');
  const prefixed = await request(
    service,
    'GET',
    `/get/${key}?${q({ Prefix: 'tender/doc', Expires: String(now + 60), Signature: signature(`tender/doc/${key}\0${now + 60}`) })}`,
  );
  t.match(prefixed, error(404, 'url', 'doc_id', 'Not Found'), 'a Prefix names another file');
  const empty = await upload('/upload', '');
  t.equal((await get(onService(empty.body.get_url))).status, 204, 'an empty file: no content, as the reference');
  t.equal((await get(`/get/${key}?${q({ Signature: signature(key), download: key })}`)).status, 200);
});

t.test('end to end: a file on the built-in service becomes a tender document; its download redirects to the bytes', async (t) => {
  const tender = await createLottedTender(server);
  // openprocurement.client.python: `document_upload_registered` (register, then upload to upload_url), then
  // `upload_document` posts `{data: response.data}` with documentType to the API.
  const content = 'звіт: content';
  const registered = await register({ hash: `md5:${md5(content)}` });
  t.equal(registered.status, 201);
  const uploaded = await upload(onService(registered.body.upload_url), content, { filename: 'report.pdf', type: 'application/pdf' });
  t.equal(uploaded.status, 200);
  const created = await server.request('POST', `/api/2.5/tenders/${tender.id}/documents`, {
    key: 'broker',
    token: tender.token,
    body: { data: { ...uploaded.body.data, documentType: 'notice' } },
  });
  t.equal(created.status, 201, created.text);
  const key = new URL(uploaded.body.data.url).pathname.split('/')[2];
  t.match(created.body.data, {
    title: 'report.pdf',
    hash: `md5:${md5(content)}`,
    documentType: 'notice',
    url: new RegExp(`download=${key}$`),
  });
  // `get_file`: the API's 302, followed; the filename read by splitting at `; filename=`.
  for (const as of [{ key: 'broker', token: tender.token }, {}]) {
    const download = await apiDownload(created.body.data.url, as);
    t.equal(download.status, 302);
    const file = await get(onService(download.headers.get('location')!));
    t.equal(file.status, 200);
    t.equal(await file.text(), content);
    t.equal(file.headers.get('content-disposition')!.split('; filename=')[1].replace(/^"|"$/g, ''), 'report.pdf');
  }
  // The not-registered way (`document_upload_not_registered`), as a new version.
  const direct = await upload('/upload', 'second', { filename: 'report-2.pdf', type: 'application/pdf' });
  const put = await server.request('PUT', `/api/2.5/tenders/${tender.id}/documents/${created.body.data.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: direct.body.data },
  });
  t.equal(put.status, 200, put.text);
  const second = await apiDownload(put.body.data.url);
  t.equal(await (await get(onService(second.headers.get('location')!))).text(), 'second');
});

t.test("restricted objects mask a built-in service document's url as any other", async (t) => {
  const framework = await activeFramework(server, { restricted: true });
  const submission = await createSubmission(server, framework.id, { config: { restricted: true } });
  const uploaded = await upload('/upload', 'secret', { filename: 'secret.pdf', type: 'application/pdf' });
  const path = `/api/2.5/submissions/${submission.id}/documents`;
  const created = await server.request('POST', path, { key: 'broker1', token: submission.token, body: { data: uploaded.body.data } });
  t.equal(created.status, 201, created.text);
  const key = new URL(uploaded.body.data.url).pathname.split('/')[2];
  for (const reader of [undefined, 'broker2']) {
    const shown = (await server.request('GET', path, { key: reader })).body.data[0];
    t.not(shown.url, created.body.data.url, `reader ${reader ?? 'anonymous'}`);
    t.notOk(JSON.stringify(shown).includes(key), 'the file key is not shown');
  }
  t.equal((await server.request('GET', path, { key: 'brokerr' })).body.data[0].url, created.body.data.url, 'r accreditation sees it');
  const download = await apiDownload(created.body.data.url, { key: 'broker1', token: submission.token });
  t.equal(download.status, 302);
  t.equal(await (await get(onService(download.headers.get('location')!))).text(), 'secret');
});
