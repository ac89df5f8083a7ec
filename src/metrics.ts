import client from 'prom-client';

/**
 * The node's Prometheus registry. Modules register their own series here; `GET /metrics` exposes them all,
 * with the default process metrics.
 */
export const metrics = new client.Registry();
client.collectDefaultMetrics({ register: metrics });

export const httpRequests = new client.Counter({
  name: 'registry_http_requests_total',
  help: 'HTTP requests by route, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metrics],
});

export const httpDuration = new client.Histogram({
  name: 'registry_http_request_duration_seconds',
  help: 'HTTP request latency by route and method',
  labelNames: ['route', 'method'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metrics],
});

export const sessionPreconditionFailures = new client.Counter({
  name: 'registry_session_412_total',
  help: 'Requests answered 412 because the SESSION cookie named a node that is not alive',
  registers: [metrics],
});

export const storeDuration = new client.Histogram({
  name: 'registry_store_operation_duration_seconds',
  help: 'Store port operation latency by engine, operation and outcome (ok, conflict, error)',
  labelNames: ['engine', 'operation', 'outcome'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metrics],
});

export const commitBatchSize = new client.Histogram({
  name: 'registry_store_commit_batch_size',
  help: 'Commits that shared one SQLite write transaction (group commit)',
  buckets: [1, 2, 3, 4, 6, 8, 12, 16, 32, 64],
  registers: [metrics],
});

export const feedDelay = new client.Gauge({
  name: 'registry_feed_delay_seconds',
  help: 'MongoDB engine: how far the feeds lag behind the wall clock (the lowest live floor); a change is listed at most this late',
  registers: [metrics],
});

export const liveMembers = new client.Gauge({
  name: 'registry_cluster_live_members',
  help: 'API nodes this node sees alive (1 without Redis: the node itself)',
  registers: [metrics],
});

export const feedStreamsOpen = new client.Gauge({
  name: 'registry_feed_streams_open',
  help: 'Live feed streams (text/event-stream) open on this node, by collection',
  labelNames: ['collection'] as const,
  registers: [metrics],
});

export const feedStreamEvents = new client.Counter({
  name: 'registry_feed_stream_events_total',
  help: 'Feed entries sent to live feed streams, by collection',
  labelNames: ['collection'] as const,
  registers: [metrics],
});

export const feedStreamsEnded = new client.Counter({
  name: 'registry_feed_streams_ended_total',
  help: 'Live feed streams the node ended, by reason (slow: its client fell a buffer behind; shutdown; error)',
  labelNames: ['reason'] as const,
  registers: [metrics],
});

export const feedStreamLag = new client.Histogram({
  name: 'registry_feed_stream_lag_seconds',
  help: 'How long after its feed position (its commit time) a change was sent to the live streams following it',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metrics],
});
