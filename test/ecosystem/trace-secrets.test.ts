/**
 * No secret leaves the node in a trace (docs/operations.md §Traces): owner tokens sent as `acc_token`, in
 * `X-Access-Token` or in the body, download keys, API keys and SESSION cookies never appear in any span's name,
 * attributes or events, on any route of the table, whatever the request's outcome. The SDK starts before the app's
 * modules load, as src/start-tracing.ts does for the node, with an in-memory exporter in place of OTLP.
 */
import t from 'tap';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../../src/tracing';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'registry', spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing.shutdown());

/** Every text a span carries that an exporter sends: its name, attribute values, event names and attributes. */
function spanTexts(span: ReadableSpan): string[] {
  const values = (attributes: ReadableSpan['attributes'] | undefined) => Object.values(attributes ?? {}).map((v) => String(v));
  return [span.name, ...values(span.attributes), ...span.events.flatMap((e) => [e.name, ...values(e.attributes)])];
}

/** The spans (by name and attribute key) carrying any of `secrets`, once every span of the requests has ended. */
async function leaks(secrets: string[]): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 100)); // server spans end after the client has its answer
  const found: string[] = [];
  for (const span of exporter.getFinishedSpans()) {
    for (const text of spanTexts(span)) {
      const secret = secrets.find((s) => text.includes(s) || text.includes(encodeURIComponent(s)));
      if (secret) found.push(`${span.name}: ${text.slice(0, 200)}`);
    }
  }
  return found;
}

t.test('every route of the table, with a token in every place a client may put one → no span carries it', async (t) => {
  const { startTestServer } = await import('../fixtures/server');
  const server = await startTestServer();
  t.teardown(() => server.close());
  const described = (await server.request('GET', '/api/2.5/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const routes = Object.entries(described.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => ['get', 'head', 'post', 'patch', 'put', 'delete'].includes(method))
      .map((method) => ({ method, path })),
  );
  const secrets: string[] = [];
  const failed: string[] = [];
  let n = 0;
  for (const { method, path } of routes) {
    const token = `tok${String(++n).padStart(4, '0')}secretaccess`;
    const key = `dl${n}secretdownloadkey`;
    const header = `hdr${n}secretaccessheader`;
    const apiKey = `key${n}secretapikey`;
    secrets.push(token, key, header, apiKey);
    const url = path.replace(/\{\w+\}/g, 'f'.repeat(32));
    const reply = await server.request(method.toUpperCase(), `${url}?acc_token=${token}&download=${key}&opt_pretty=1`, {
      // Half the requests as a broker, half with an unknown API key, which must not be recorded either.
      key: n % 2 ? 'broker' : apiKey,
      headers: { 'x-access-token': header, cookie: `SESSION=${header}` },
      ...(method === 'get' || method === 'head' ? {} : { body: { data: {}, access: { token: header } } }),
    });
    if (reply.status >= 500) failed.push(`${method} ${path}: ${reply.status}`);
  }
  t.same(failed, [], 'every route answered without a 5xx');
  t.ok(routes.length > 100, `${routes.length} routes asked`);
  t.ok(exporter.getFinishedSpans().length > routes.length, `${exporter.getFinishedSpans().length} spans looked at`);
  t.same(await leaks(secrets), [], 'no token, download key or header value in any span');
});

t.test('real tokens and download keys through a framework, a submission, a plan and a tender → in no span', async (t) => {
  const { startTestServer } = await import('../fixtures/server');
  const { createFramework, activateFramework, createSubmission, uploadDocument } = await import('../fixtures/frameworks');
  const { createPlan } = await import('../fixtures/plans');
  const { activeTender } = await import('../fixtures/cancellations');
  exporter.reset();
  const server = await startTestServer();
  t.teardown(() => server.close());
  const framework = await createFramework(server);
  const upload = await uploadDocument(server, `/api/2.5/frameworks/${framework.id}/documents`, { key: 'broker', token: framework.token });
  t.equal(upload.status, 201, 'a document uploaded with the token in the query');
  const downloadUrl = new URL(upload.body.data.url as string);
  const downloadKey = downloadUrl.searchParams.get('download')!;
  const downloaded = await server.request('GET', `${downloadUrl.pathname}${downloadUrl.search}`);
  t.equal(downloaded.status, 200, 'downloaded with its key');
  await activateFramework(server, framework);
  const submission = await createSubmission(server, framework.id);
  const byHeader = await server.request('PATCH', `/api/2.5/submissions/${submission.id}`, {
    key: 'broker1',
    token: submission.token,
    tokenIn: 'header',
    body: { data: { status: 'active' } },
  });
  t.equal(byHeader.status, 200, 'a submission activated with the token in X-Access-Token');
  const plan = await createPlan(server);
  const byBody = await server.request('PATCH', `/api/2.5/plans/${plan.id}`, {
    key: 'broker',
    token: plan.token,
    tokenIn: 'body',
    body: { data: { status: 'scheduled' } },
  });
  t.ok(byBody.status < 500, `a plan changed with the token in the body (${byBody.status})`);
  const tender = await activeTender(server, 'belowThreshold');
  const patched = await server.request('PATCH', `/api/2.5/tenders/${tender.id}`, {
    key: 'broker',
    token: tender.token,
    body: { data: { title: 'нова назва' } },
  });
  t.equal(patched.status, 200, 'a tender changed with the token in the query');
  const secrets = [framework.token, submission.token, plan.token, tender.token, downloadKey];
  secrets.push(...[framework, submission].map((c) => c.reply.body.access.transfer as string), tender.transfer!);
  t.same(await leaks(secrets), [], 'no owner token, transfer token or download key in any span');
  t.ok(exporter.getFinishedSpans().length > 50, `${exporter.getFinishedSpans().length} spans looked at`);
});
