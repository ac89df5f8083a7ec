/**
 * No secret leaves the node in a trace (docs/operations.md §Traces): owner tokens (`acc_token`, whichever object
 * they own, those a transfer hands over included), document download keys, and the Authorization, X-Access-Token
 * and Cookie headers. Real flows send real secrets over every kind of route that takes one, then every route the
 * OpenAPI document says takes `acc_token` or `download` is called with canaries; no exported span's name,
 * attribute, event or status may hold any of them. The SDK starts before the app's modules load, as
 * src/start-tracing.ts does for the node, with an in-memory exporter in place of OTLP.
 */
import t from 'tap';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTracing } from '../../src/tracing';
// Types only: the fixtures themselves load after the SDK has started.
import type { Reply } from '../fixtures/server';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'registry', spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing.shutdown());

/** Every text a span exports: its name, status message, attributes and events (names and attributes). */
function textsOf(span: ReadableSpan): string[] {
  const values = (attributes: Record<string, unknown> = {}) =>
    Object.entries(attributes).map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`);
  return [
    span.name,
    span.status.message ?? '',
    ...values(span.attributes),
    ...span.events.flatMap((event) => [event.name, ...values(event.attributes)]),
    ...span.links.flatMap((link) => values(link.attributes)),
  ];
}

/** The spans' texts that hold a secret, as `span name: text` lines. */
function leaks(spans: ReadableSpan[], secrets: string[]): string[] {
  return spans.flatMap((span) =>
    textsOf(span)
      .filter((text) => secrets.some((secret) => text.includes(secret)))
      .map((text) => `${span.name}: ${text}`),
  );
}

/** Server spans end after the response is handed to the socket: wait until `count` of them have. */
async function serverSpans(count: number): Promise<ReadableSpan[]> {
  const ended = () => exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
  for (let tries = 0; tries < 250 && ended().length < count; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  return ended();
}

const keyOf = (url: string) => new URL(url).searchParams.get('download') ?? '';

t.test('owner tokens, transfer tokens and download keys sent by real flows are in no span', async (t) => {
  // Loaded only now, so that the instrumentations see http, koa and the MongoDB driver load.
  const { DEFAULT_NOW, startTestServer } = await import('../fixtures/server');
  const { decision, patchAward, signContract, tenderInQualification } = await import('../fixtures/awards');
  const { activeFramework, activeSubmission, decideQualification, uploadDocument } = await import('../fixtures/frameworks');
  const { createPlan } = await import('../fixtures/plans');
  const { createLottedTender, placeBid, tenderInTendering } = await import('../fixtures/tenders');
  // `broker`, which makes every object, has left the platform (level x): `broker3` may take its tender over.
  const dir = mkdtempSync(join(tmpdir(), 'trace-secrets-'));
  const authFile = join(dir, 'auth.ini');
  writeFileSync(authFile, readFileSync(join(__dirname, '../../auth.ini'), 'utf8').replace('broker = broker\n', 'broker = broker,12345x\n'));
  const server = await startTestServer({ env: { AUTH_FILE: authFile } });
  t.teardown(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  exporter.reset();
  const secrets: string[] = [];
  const kept = <T extends string | undefined>(secret: T): T => {
    if (secret) secrets.push(secret);
    return secret;
  };
  let requests = 0;
  const ok = async (what: string, reply: Promise<Reply>, status = 200) => {
    const res = await reply;
    requests++;
    t.equal(res.status, status, res.status === status ? what : `${what}: ${res.text.slice(0, 300)}`);
    return res;
  };

  // A draft tender: owner PATCH (token in the query, then in X-Access-Token), a document read by its download key.
  const draft = await createLottedTender(server);
  kept(draft.token);
  const draftPath = `/api/2.5/tenders/${draft.id}`;
  await ok(
    'tender PATCH with acc_token',
    server.request('PATCH', draftPath, { key: 'broker', token: draft.token, body: { data: { description: 'traced' } } }),
  );
  await ok(
    'tender PATCH with X-Access-Token',
    server.request('PATCH', draftPath, { key: 'broker', token: draft.token, tokenIn: 'header', body: { data: { description: 'x' } } }),
  );
  const tenderDoc = (
    await ok('tender document', uploadDocument(server, `${draftPath}/documents`, { key: 'broker', token: draft.token }), 201)
  ).body.data;
  await ok(
    'tender document by download key',
    server.request('GET', `${draftPath}/documents/${tenderDoc.id}?download=${kept(keyOf(tenderDoc.url))}`),
  );

  // A bid: its own token on PATCH, on its document and on reading both.
  const bidding = await tenderInTendering(server);
  kept(bidding.token);
  const bid = await placeBid(server, bidding);
  kept(bid.token);
  const bidPath = `/api/2.5/tenders/${bidding.id}/bids/${bid.id}`;
  await ok(
    'bid PATCH with acc_token',
    server.request('PATCH', bidPath, { key: 'broker1', token: bid.token, body: { data: { status: 'pending' } } }),
  );
  const bidDoc = (await ok('bid document', uploadDocument(server, `${bidPath}/documents`, { key: 'broker1', token: bid.token }), 201)).body
    .data;
  await ok(
    'bid document by download key',
    server.request('GET', `${bidPath}/documents/${bidDoc.id}?download=${kept(keyOf(bidDoc.url))}`, { key: 'broker1', token: bid.token }),
  );
  await ok('bid read by its owner', server.request('GET', bidPath, { key: 'broker1', token: bid.token }));

  // A tender taken over by a transfer, its award decided with the new owner's token, its contract's credentials,
  // document and signature.
  server.clock.set(DEFAULT_NOW);
  const { tender, bids, data } = await tenderInQualification(server);
  kept(tender.token);
  kept(tender.transfer);
  bids.forEach((b) => kept(b.token));
  const made = await ok('transfer', server.request('POST', '/api/2.5/transfers', { key: 'broker3', body: { data: {} } }), 201);
  const transfer = { id: made.body.data.id as string, token: kept(made.body.access.token as string) };
  kept(made.body.access.transfer as string);
  await ok(
    'tender taken over',
    server.request('POST', `/api/2.5/tenders/${tender.id}/ownership`, {
      key: 'broker3',
      body: { data: { id: transfer.id, transfer: tender.transfer } },
    }),
  );
  const moved = { id: tender.id, token: transfer.token };
  const award = data.awards[0];
  const awardPath = `/api/2.5/tenders/${tender.id}/awards/${award.id}`;
  const awardDoc = (
    await ok('award document', uploadDocument(server, `${awardPath}/documents`, { key: 'broker3', token: moved.token }), 201)
  ).body.data;
  await ok(
    'award document by download key',
    server.request('GET', `${awardPath}/documents/${awardDoc.id}?download=${kept(keyOf(awardDoc.url))}`),
  );
  await ok('award PATCH with the transfer token', patchAward(server, moved, award.id, decision('active', true, false), 'broker3'));
  const contract = (await server.request('GET', `/api/2.5/tenders/${tender.id}/contracts`)).body.data[0];
  const contractPath = `/api/2.5/contracts/${contract.id}`;
  const credentials = await ok(
    'contract credentials',
    server.request('PATCH', `${contractPath}/credentials`, { key: 'broker3', token: moved.token }),
  );
  const contractToken = kept(credentials.body?.access?.token as string);
  const contractDoc = (
    await ok('contract document', uploadDocument(server, `${contractPath}/documents`, { key: 'broker3', token: contractToken }), 201)
  ).body.data;
  await ok(
    'contract document by download key',
    server.request('GET', `${contractPath}/documents/${contractDoc.id}?download=${kept(keyOf(contractDoc.url))}`),
  );
  const winner = bids.find((b) => b.id === award.bid_id)!;
  await ok(
    'contract signed (signer_info PUTs, PATCH)',
    signContract(
      server,
      { id: tender.id, token: contractToken },
      contract.id,
      winner,
      winner === bids[0] ? 'broker1' : 'broker2',
      {},
      'broker3',
    ),
  );

  // A plan.
  const plan = await createPlan(server);
  kept(plan.token);
  await ok(
    'plan PATCH with acc_token',
    server.request('PATCH', `/api/2.5/plans/${plan.id}`, { key: 'broker', token: plan.token, body: { data: { status: 'scheduled' } } }),
  );

  // A framework, a submission and its qualification.
  const framework = await activeFramework(server);
  kept(framework.token);
  const submission = await activeSubmission(server, framework.id);
  kept(submission.token);
  await decideQualification(server, framework, submission.qualificationID, 'active');
  const frameworkDoc = (
    await ok(
      'framework document',
      uploadDocument(server, `/api/2.5/frameworks/${framework.id}/documents`, { key: 'broker', token: framework.token }),
      201,
    )
  ).body.data;
  await ok(
    'framework document by download key',
    server.request('GET', `/api/2.5/frameworks/${framework.id}/documents/${frameworkDoc.id}?download=${kept(keyOf(frameworkDoc.url))}`),
  );

  const spans = await serverSpans(requests);
  t.ok(spans.length >= requests, `a server span per request (${spans.length})`);
  const queries = spans.map((s) => s.attributes['url.query']).filter((q) => typeof q === 'string');
  t.ok(
    queries.some((q) => q.includes('acc_token=')),
    'url.query is still recorded, with the parameter names',
  );
  t.same(
    leaks(exporter.getFinishedSpans(), [...new Set(secrets)]),
    [],
    `none of ${secrets.length} secrets in ${exporter.getFinishedSpans().length} spans`,
  );
});

t.test('every route that takes acc_token or download, called with canaries in the query and headers: no span holds them', async (t) => {
  const { startTestServer } = await import('../fixtures/server');
  const server = await startTestServer();
  t.teardown(() => server.close());
  const openapi = (await server.request('GET', '/api/2.5/openapi.json')).body;
  exporter.reset();
  const canary = { query: 'c4a1a2y0000000000000000000000001', download: 'c4a1a2y0000000000000000000000002' };
  const headers = {
    authorization: 'Bearer c4a1a2y-key-0000000000000000003',
    'x-access-token': 'c4a1a2y0000000000000000000000004',
    cookie: 'SESSION=c4a1a2y0000000000000000000000005',
  };
  // A parameter the API does not take, its name a secret sent by mistake.
  const stray = 'c4a1a2y0000000000000000000000006';
  const secrets = [
    canary.query,
    canary.download,
    'c4a1a2y-key-0000000000000000003',
    'c4a1a2y0000000000000000000000004',
    'c4a1a2y0000000000000000000000005',
    stray,
  ];
  let routes = 0;
  for (const [template, operations] of Object.entries<Record<string, { parameters?: { name: string; in: string }[] }>>(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      if (!names.includes('acc_token') && !names.includes('download')) continue;
      routes++;
      const path = template.replace(/\{[^}]+\}/g, 'f'.repeat(32));
      const res = await fetch(`${server.url}${path}?acc_token=${canary.query}&download=${canary.download}&limit=5&${stray}`, {
        method: method.toUpperCase(),
        headers: { ...headers, 'content-type': 'application/json' },
        body: method === 'get' || method === 'delete' ? undefined : JSON.stringify({ data: {} }),
      });
      await res.arrayBuffer();
    }
  }
  t.ok(routes >= 60, `${routes} routes take a token or a download key`);
  const spans = await serverSpans(routes);
  t.equal(spans.length, routes, 'a server span per call');
  t.same(
    [...new Set(spans.map((s) => s.attributes['url.query']))],
    ['acc_token=REDACTED&download=REDACTED&limit=5&REDACTED'],
    'url.query keeps what is no secret, the names of the secret parameters, and nothing of the rest',
  );
  t.same(leaks(exporter.getFinishedSpans(), secrets), [], 'no canary in any span');
  const headerKeys = spans.flatMap((s) => Object.keys(s.attributes)).filter((k) => k.startsWith('http.request.header.'));
  t.same(headerKeys, [], 'no request header captured');
});
