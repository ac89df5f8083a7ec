/**
 * OpenTelemetry traces (docs/operations.md §Traces): a request through the app is one trace with its HTTP server
 * span carrying the request id, the Koa middleware spans, a span per store port call and, on MongoDB, the driver's
 * command spans under those; the access log line names the trace. The SDK starts before the app's modules load, as
 * src/start-tracing.ts does for the node, with an in-memory exporter in place of OTLP.
 */
import t from 'tap';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { Writable } from 'node:stream';
import { startTracing } from '../../src/tracing';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'registry', spanProcessors: [new SimpleSpanProcessor(exporter)] });
t.teardown(() => tracing.shutdown());

const scope = (span: ReadableSpan) => span.instrumentationScope.name;

/**
 * The HTTP server span, once ended: it ends when the server has handed the response to the socket, which a loaded
 * machine may run after the client has read the answer.
 */
async function serverSpanEnded(): Promise<ReadableSpan | undefined> {
  for (let tries = 0; tries < 250; tries++) {
    const span = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && scope(s) === '@opentelemetry/instrumentation-http');
    if (span) return span;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

t.test('a request is one trace: HTTP server span with the request id, Koa spans, store spans', async (t) => {
  // Loaded only now, so that the instrumentations see http, koa and the MongoDB driver load.
  const { startTestServer } = await import('../fixtures/server');
  const { aFramework } = await import('../fixtures/frameworks');
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  const server = await startTestServer({ logger });
  t.teardown(() => server.close());

  const created = await server.request('POST', '/api/2.5/frameworks', {
    key: 'broker',
    body: { data: aFramework(server.clock.now()) },
    headers: { 'x-request-id': 'trace-me-1' },
  });
  t.equal(created.status, 201);

  const httpSpan = await serverSpanEnded();
  const spans = exporter.getFinishedSpans();
  t.ok(httpSpan, 'an HTTP server span');
  if (!httpSpan) return;
  t.equal(httpSpan.attributes['http.request.id'], 'trace-me-1', 'the request id on the request span');
  const traceId = httpSpan.spanContext().traceId;
  const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
  t.ok(
    inTrace.some((s) => scope(s) === '@opentelemetry/instrumentation-koa'),
    'Koa middleware spans in the same trace',
  );
  const storeSpans = inTrace.filter((s) => s.name.startsWith('store.'));
  t.ok(storeSpans.length > 0, `store spans in the same trace (${storeSpans.map((s) => s.name).join(', ')})`);
  t.equal(storeSpans[0].attributes['registry.store.engine'], server.store.engine);
  if (server.store.engine === 'mongodb') {
    const commands = inTrace.filter((s) => scope(s) === '@opentelemetry/instrumentation-mongodb');
    t.ok(commands.length > 0, `MongoDB command spans in the same trace (${commands.map((s) => s.name).join(', ')})`);
    const storeIds = new Set(storeSpans.map((s) => s.spanContext().spanId));
    t.ok(
      commands.every((s) => storeIds.has(s.parentSpanContext?.spanId ?? '')),
      'each command span under a store span',
    );
  }
  const access = lines.find((l) => l.msg === 'request' && l.requestId === 'trace-me-1');
  t.equal(access?.traceId, traceId, 'the access log line names the trace');
});

t.test('the node started as `node src/main` traces its requests when OTEL_TRACES_EXPORTER is set', async (t) => {
  const { spawn } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'registry-tracing-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import=tsx', require.resolve('../../src/main.ts')], {
    env: {
      ...process.env,
      PORT: '0',
      STORE_URL: `sqlite:${join(dir, 'registry.db')}`,
      AUTH_FILE: join(__dirname, '../../auth.ini'),
      OTEL_TRACES_EXPORTER: 'console', // the SDK's own exporter: spans printed on stdout
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const found = /"url":"(http:[^"]+)"/.exec(out);
      if (found) {
        clearInterval(poll);
        resolve(found[1]);
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`node exited: ${out}`));
      }
    }, 50);
  });
  const token = 'c4a1a2y00000000000000000000000c0';
  const res = await fetch(`${url}/api/2.5/frameworks?acc_token=${token}&limit=7`, {
    headers: { 'x-request-id': 'main-trace-1', 'x-access-token': token, authorization: `Bearer ${token}` },
  });
  t.equal(res.status, 200);
  child.kill('SIGTERM'); // the drain ends with the SDK's shutdown, which sends what is buffered
  await exited;
  t.match(out, /"requestId":"main-trace-1","traceId":"[0-9a-f]{32}"/, 'the access log line names the trace');
  t.match(out, /'http\.request\.id': 'main-trace-1'/, 'the HTTP server span carries the request id');
  t.match(out, /@opentelemetry\/instrumentation-koa/, 'Koa was instrumented: the SDK started before it loaded');
  t.match(out, /name: 'store\.feed/, 'a store span');
  t.match(out, /'url\.query': 'acc_token=REDACTED&limit=7'/, 'the query is scrubbed (docs/operations.md §Traces)');
  t.notOk(out.includes(token), 'the token is nowhere in the log or the printed spans');
});
