import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import type { Span } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { scrubbedUrlAttribute, URL_ATTRIBUTES } from './trace-scrub';

export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Rewrites, on an HTTP span just started, every attribute that may hold a query string: owner tokens and download
 * keys never reach an exporter (docs/operations.md §Traces). The SDK's spans are its `ReadableSpan`s, so the
 * attributes the instrumentation wrote, whichever its version, can be read here.
 */
function scrubUrls(span: Span) {
  const written = (span as Partial<ReadableSpan>).attributes ?? {};
  for (const key of URL_ATTRIBUTES) {
    const value = written[key];
    if (typeof value === 'string') span.setAttribute(key, scrubbedUrlAttribute(key, value));
  }
}

/**
 * Starts the OpenTelemetry Node SDK with the HTTP, Koa, MongoDB and ioredis instrumentations. The exporter, its
 * endpoint, sampling and resource come from the standard `OTEL_*` variables, read by the SDK itself; a test passes
 * its own span processors instead (docs/operations.md §Traces). Only modules loaded after this call are
 * instrumented.
 */
export function startTracing(options: { serviceName: string | undefined; spanProcessors?: SpanProcessor[] }): Tracing {
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors: options.spanProcessors,
    instrumentations: [
      // Probes and scrapes every few seconds would be most of the traces and say nothing.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? ''),
        requestHook: scrubUrls,
        // Request and response headers (Authorization, X-Access-Token, Cookie) are never captured: no
        // `headersToSpanAttributes` here.
      }),
      new KoaInstrumentation(),
      new MongoDBInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
