import t, { type Test } from 'tap';
import { uploadDocument } from '../../fixtures/frameworks';
import { DEV_PUBLIC_KEY, DOCSERVICE, docserviceEnv, signedByDevKey, signedDocument, signedUrl } from '../../fixtures/docservice';
import { createPlan } from '../../fixtures/plans';
import { DEFAULT_NOW, errorReply as error, startTestServer, type Reply, type TestServer } from '../../fixtures/server';
import { uploadRoutes } from '../../fixtures/uploads';
import {
  aCompetitiveOrderingTender,
  anItem,
  competitiveOrderingConfig,
  createTender,
  insertAgreement,
  placeBid,
  tenderInTendering,
} from '../../fixtures/tenders';
import { tenderInQualification } from '../../fixtures/awards';

/** docs/platform.md §Document service: JSON documents naming the service's signed url, and downloads that redirect. */
let server: TestServer;
t.before(async () => {
  server = await startTestServer({ env: docserviceEnv });
});
t.teardown(() => server.close());
t.beforeEach(() => server.clock.set(DEFAULT_NOW));

const post = (path: string, as: { key?: string; token?: string }, data: unknown, method = 'POST') =>
  server.request(method, path, { ...as, body: { data } });

/** A download as `key` reads it (no redirect followed). */
const download = (url: string, key?: string, token?: string) =>
  fetch(`${server.url}${new URL(url).pathname}${new URL(url).search}${token ? `&acc_token=${token}` : ''}`, {
    redirect: 'manual',
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });

/** The redirect names the service's `/get/<key>`, good for 300 s from the clock, signed by the registry's key. */
function checkRedirect(t: Test, res: Response, fileKey: string, title: string, format: string) {
  t.equal(res.status, 302);
  const location = new URL(res.headers.get('location')!);
  t.equal(`${location.origin}${location.pathname}`, `${DOCSERVICE}/get/${fileKey}`);
  t.same([...location.searchParams.keys()], ['Expires', 'Signature', 'KeyID']);
  const expires = location.searchParams.get('Expires')!;
  t.equal(Number(expires), Math.floor(server.clock.now().getTime() / 1000) + 300);
  t.equal(location.searchParams.get('KeyID'), DEV_PUBLIC_KEY.slice(0, 8));
  t.ok(signedByDevKey(`${fileKey}\0${expires}`, location.searchParams.get('Signature')!), 'signed over key\\0expires');
  t.equal(res.headers.get('content-type'), format);
  t.match(res.headers.get('content-disposition'), `filename*=UTF-8''${encodeURIComponent(title)}`);
}

t.test("the reference's recorded tutorial body, replayed verbatim: stored, and its download redirects", async (t) => {
  const routes = await uploadRoutes(server);
  const framework = routes.find((r) => r.kind === 'frameworks')!;
  // upload-framework-document.http of the reference's framework tutorial, signed by its development key.
  const recorded = {
    title: 'framework.doc',
    url: 'http://public-docs-sandbox.prozorro.gov.ua/get/f5cb842886f141e681b47175faee1ea1?Signature=pHqDG1lqYutJy8U7HPCCyc8uax0f19KdoWORHwN5qVLAew5b0Hp96XPiixj3voULdWbi6yws6Dun%2BLrAjxL9CA%3D%3D&KeyID=a8968c46',
    hash: 'md5:00000000000000000000000000000000',
    format: 'application/msword',
  };
  const reply = await post(framework.path, framework, recorded);
  t.equal(reply.status, 201, reply.text);
  const document = reply.body.data;
  t.match(document, { title: 'framework.doc', hash: recorded.hash, format: recorded.format, language: 'uk', id: /^[0-9a-f]{32}$/ });
  t.equal(document.url, `${server.config.storedUrlBase}${framework.path}/${document.id}?download=f5cb842886f141e681b47175faee1ea1`);
  t.equal(reply.headers.get('location'), `${server.url}${framework.path}/${document.id}`);
  checkRedirect(t, await download(document.url), 'f5cb842886f141e681b47175faee1ea1', 'framework.doc', 'application/msword');
});

/** Every document route of every kind: POST with documentType in the same request, PUT a new version, download. */
t.test('every kind and sub-resource takes signed documents, new versions too, and redirects their downloads', async (t) => {
  const routes: { kind: string; path: string; key: string; token: string }[] = await uploadRoutes(server);
  const plan = await createPlan(server);
  routes.push({ kind: 'plans', path: `/api/2.5/plans/${plan.id}/documents`, key: 'broker', token: plan.token });
  const { tender, data } = await tenderInQualification(server, { lots: 1 });
  routes.push({
    kind: 'awards',
    path: `/api/2.5/tenders/${tender.id}/awards/${data.awards[0].id}/documents`,
    key: 'broker',
    token: tender.token,
  });
  const cancellation = await post(
    `/api/2.5/tenders/${tender.id}/cancellations`,
    { key: 'broker', token: tender.token },
    {
      reason: 'Причина',
      reasonType: 'noDemand',
    },
  );
  t.equal(cancellation.status, 201, cancellation.text);
  const cancellationDocs = `/api/2.5/tenders/${tender.id}/cancellations/${cancellation.body.data.id}/documents`;
  routes.push({ kind: 'cancellations', path: cancellationDocs, key: 'broker', token: tender.token });
  server.clock.set(DEFAULT_NOW);
  const tendering = await tenderInTendering(server, { lots: 1 });
  const bid = await placeBid(server, tendering);
  routes.push({ kind: 'bids', path: `/api/2.5/tenders/${tendering.id}/bids/${bid.id}/documents`, key: 'broker1', token: bid.token });

  for (const route of routes) {
    const md5 = 'ab'.repeat(16);
    const body = signedDocument({ title: 'Звіт.pdf', documentType: route.kind === 'bids' ? 'commercialProposal' : 'notice' }, md5);
    const created = await post(route.path, route, body);
    t.equal(created.status, 201, `${route.kind}: ${created.text}`);
    const document = created.body.data;
    t.match(document, { title: 'Звіт.pdf', hash: `md5:${md5}`, documentType: body.documentType }, route.kind);
    const fileKey = new URL(body.url).pathname.split('/')[2];
    t.equal(new URL(document.url).searchParams.get('download'), fileKey);
    checkRedirect(t, await download(document.url, route.key, route.token), fileKey, 'Звіт.pdf', 'application/pdf');

    const next = signedDocument({
      title: 'Звіт-2.pdf',
      description: 'друга версія',
      documentType: 'biddingDocuments',
      format: 'text/plain',
    });
    const put = await post(`${route.path}/${document.id}`, route, next, 'PUT');
    t.equal(put.status, 200, `${route.kind} PUT: ${put.text}`);
    // A new version takes title, url, hash and other members from the request; format and documentType stay.
    t.match(put.body.data, {
      id: document.id,
      title: 'Звіт-2.pdf',
      description: 'друга версія',
      documentType: body.documentType,
      format: 'application/pdf',
    });
    const listed = await server.request('GET', `${route.path}?all=1`, { key: route.key, token: route.token });
    t.equal(listed.body.data.length, 2, `${route.kind}: both versions`);
    checkRedirect(t, await download(document.url, route.key, route.token), fileKey, 'Звіт.pdf', 'application/pdf');
  }
});

t.test("every refusal the reference's check_document gives, with nothing stored", async (t) => {
  const [, , , tender] = await uploadRoutes(server);
  const as = { key: tender.key, token: tender.token };
  const before = (await server.request('GET', tender.path)).body.data;
  const fromService = error(403, 'body', 'url', 'Can add document only from document service.');
  const invalid = (text: string) => error(422, 'body', 'url', text);
  const url = new URL(signedUrl());
  const withQuery = (extra: string) => `${url.origin}${url.pathname}${url.search}${extra}`;
  const cases: [string, Record<string, unknown>, ReturnType<typeof error>][] = [
    ['another host', { url: signedUrl({ base: 'http://docs.example.com' }) }, fromService],
    ['a host that only starts like the service', { url: signedUrl({ base: `${DOCSERVICE}.example.com` }) }, fromService],
    ['a deeper path', { url: signedUrl({ base: `${DOCSERVICE}/x` }) }, fromService],
    ['another query parameter', { url: withQuery('&Expires=1') }, fromService],
    ['no KeyID', { url: `${url.origin}${url.pathname}?Signature=${encodeURIComponent(url.searchParams.get('Signature')!)}` }, fromService],
    ['not a url', { url: 'not a url' }, fromService],
    ['no hash', { hash: undefined }, error(422, 'body', 'hash', 'This field is required.')],
    ['an unknown KeyID', { url: signedUrl({ keyId: 'ffffffff' }) }, invalid('Document url expired.')],
    [
      'a Signature that is not base64',
      { url: `${url.origin}${url.pathname}?Signature=abc&KeyID=a8968c46` },
      invalid('Document url signature invalid.'),
    ],
    ['a signature of another hash', { hash: `md5:${'1'.repeat(32)}` }, invalid('Document url invalid.')],
    ['a signature of another key', { url: signedUrl({ seed: '11'.repeat(32) }) }, invalid('Document url invalid.')],
    ['a hash of another type', { hash: `sha1:${'0'.repeat(40)}` }, error(422, 'body', 'hash', ['Hash type is not supported.'])],
    ['no title', { title: undefined }, error(422, 'body', 'title', ['This field is required.'])],
    ['a bad format', { format: 'pdf' }, error(422, 'body', 'format', ['String value did not match validation regex.'])],
    ['an author', { author: 'tender_owner' }, error(422, 'body', 'author', 'Rogue field')],
  ];
  for (const [name, change, expected] of cases) {
    const body: Record<string, unknown> = { ...signedDocument(), ...change };
    t.match(await post(tender.path, as, body), expected, name);
  }
  t.match(await post(tender.path, { key: 'broker1', token: tender.token }, signedDocument()), error(403, 'url', 'permission', 'Forbidden'));
  t.same((await server.request('GET', tender.path)).body.data, before, 'nothing stored');
});

t.test('multipart uploads still answer 200 with the file, to every reader, beside redirected ones', async (t) => {
  const [, , , tender] = await uploadRoutes(server);
  const uploaded = await uploadDocument(server, tender.path, {
    key: tender.key,
    token: tender.token,
    content: 'the bytes',
    type: 'application/pdf',
  });
  t.equal(uploaded.status, 201, uploaded.text);
  const signed = await post(tender.path, tender, signedDocument());
  for (const key of [undefined, 'broker', 'broker1']) {
    const file = await download(uploaded.body.data.url, key);
    t.equal(file.status, 200);
    t.equal(await file.text(), 'the bytes');
    t.equal((await download(signed.body.data.url, key)).status, 302, `signed, key ${key ?? 'none'}`);
  }
  t.match(
    await server.request('GET', `${tender.path}/${signed.body.data.id}?download=${'f'.repeat(32)}`),
    error(404, 'url', 'download', 'Not Found'),
  );
});

t.test('restricted objects mask url as before; buyerOnly documents are checked as PATCH checks them', async (t) => {
  const agreementId = await insertAgreement(server, { restricted: true });
  const restricted = await createTender(
    server,
    aCompetitiveOrderingTender(agreementId, { items: [anItem()] }),
    competitiveOrderingConfig({ restricted: true }),
  );
  const path = `/api/2.5/tenders/${restricted.id}/documents`;
  const created = await post(path, { key: 'broker', token: restricted.token }, signedDocument());
  t.equal(created.status, 201, created.text);
  for (const key of [undefined, 'broker', 'broker1', 'brokerr']) {
    const object = (await server.request('GET', `/api/2.5/tenders/${restricted.id}`, { key })).body.data;
    t.same((await server.request('GET', path, { key })).body.data, object.documents, `list = the object's documents, key ${key ?? 'none'}`);
  }
  const routes = await uploadRoutes(server);
  const contract = routes.find((r) => r.kind === 'contracts')!;
  t.match(
    await post(contract.path, contract, signedDocument({ confidentiality: 'buyerOnly' })),
    error(422, 'body', 'confidentialityRationale', ['confidentialityRationale is required']),
  );
});

/**
 * openprocurement.client.python: `upload_document` posts the service's `{data: {url, hash, format, title}}` as it
 * got it from `/upload`, and `get_file` reads the redirect's Location and the Content-Disposition's filename.
 */
t.test("the reference client's upload_document and get_file exchanges", async (t) => {
  const [, , , tender] = await uploadRoutes(server);
  const fromUpload = {
    url: signedUrl({ md5: 'c'.repeat(32) }),
    hash: `md5:${'c'.repeat(32)}`,
    format: 'application/msword',
    title: 'name.doc',
  };
  const created: Reply = await post(tender.path, tender, fromUpload);
  t.equal(created.status, 201, created.text);
  const res = await download(created.body.data.url, 'broker');
  t.equal(res.status, 302);
  t.match(
    res.headers.get('location'),
    /^http:\/\/public-docs-sandbox\.prozorro\.gov\.ua\/get\/[0-9a-f]{32}\?Expires=\d+&Signature=[^&]+&KeyID=a8968c46$/,
  );
  t.match(res.headers.get('content-disposition'), /filename="name\.doc"/);
});

t.test('past Expires the redirect of a later download is a new one', async (t) => {
  const [, , , tender] = await uploadRoutes(server);
  const created = await post(tender.path, tender, signedDocument());
  const first = new URL((await download(created.body.data.url)).headers.get('location')!);
  server.clock.advance(301_000);
  const second = new URL((await download(created.body.data.url)).headers.get('location')!);
  t.equal(Number(second.searchParams.get('Expires')) - Number(first.searchParams.get('Expires')), 301);
});

/**
 * The reference's document service quotes the base64 before its URL encodes it again (`%252B`, `%253D`: its tutorial's
 * `register-json.http`); the API unquotes it as the reference's `check_document` does.
 */
t.test("a url as the reference's service writes it, its Signature quoted twice, is accepted", async (t) => {
  const [, , , tender] = await uploadRoutes(server);
  const url = new URL(signedUrl({ md5: 'd'.repeat(32) }));
  const quoted = url.searchParams.get('Signature')!.replace(/\+/g, '%2B').replace(/=/g, '%3D');
  const twice = `${url.origin}${url.pathname}?KeyID=${url.searchParams.get('KeyID')}&Signature=${encodeURIComponent(quoted)}`;
  t.match(twice, /%25(2B|3D)/);
  const created = await post(tender.path, tender, signedDocument({ url: twice }, 'd'.repeat(32)));
  t.equal(created.status, 201, created.text);
  const broken = twice.replace(/KeyID=[0-9a-f]+&Signature=/, (m) => `${m}%25D1%2582`);
  t.match(
    await post(tender.path, tender, signedDocument({ url: broken }, 'd'.repeat(32))),
    error(422, 'body', 'url', 'Document url signature invalid.'),
  );
});
