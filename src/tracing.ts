import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Query parameters that carry secrets: the owner token and a document's download key (docs/operations.md §Traces),
 * and the instrumentation's own list of cloud signatures for outgoing requests. Their values become `REDACTED` in
 * every URL the HTTP instrumentation records (`url.query` of a request, `url.full` of an outgoing call).
 */
const SECRET_QUERY_PARAMETERS = ['acc_token', 'download', 'sig', 'Signature', 'AWSAccessKeyId', 'X-Goog-Signature'];

export interface Tracing {
  shutdown(): Promise<void>;
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
        redactedQueryParamsServer: SECRET_QUERY_PARAMETERS,
        redactedQueryParams: SECRET_QUERY_PARAMETERS,
      }),
      new KoaInstrumentation(),
      new MongoDBInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
