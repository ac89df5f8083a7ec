import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import { cpuSecondsOf, storageReadBytesOf } from './processes';

const SAMPLE_MS = 100;

export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Mean response size in bytes. */
  bytes: number;
  load1: number;
  /**
   * Server CPU (user + system) per request, in microseconds. Unlike requests/s it hardly moves when other
   * processes share the cores, so product/baseline CPU per request is the steadier measure of overhead.
   */
  cpuUs: number;
  /**
   * KiB per request the server read from storage rather than from the page cache: above zero, the run was partly
   * bound by the disk, as reads of a file larger than the page cache are.
   */
  storageKiB: number;
  /** The store server's CPU per request, in microseconds (NaN without `storePid`: an embedded store has none). */
  storeCpuUs: number;
}

export interface DriveOptions {
  url: string;
  connections: number;
  duration: number;
  /**
   * A fixed count of requests per measured run instead of `duration` seconds: a count measures something however
   * busy the machine is, where a short window on a loaded machine may hold no answered request at all.
   */
  requests?: number;
  warmup: number;
  /** The server's process id, for its CPU time. */
  pid?: number;
  /** The store server's process id (MongoDB), for its CPU time. */
  storePid?: number;
  /** Requests per second across all connections, paced by autocannon; as fast as answered when unset. */
  rate?: number;
}

type Ctx = Record<string, any>;
export interface RequestPlan {
  method?: string;
  headers?: Record<string, string>;
  /** The body of every request, or of one client's next request (called after `path`, with the same state). */
  body?: string | ((ctx: Ctx) => string);
  /**
   * Path of the next request of one client (`ctx` is that client's state, kept from one of its requests to the next:
   * as many clients as connections, each with one request in flight at a time).
   */
  path: (ctx: Ctx) => string;
  onResponse?: (status: number, body: string, ctx: Ctx) => void;
}

/**
 * One autocannon run; a short warm-up run first (not counted). Latency percentiles come from autocannon's
 * own per-response times (float milliseconds): its histogram keeps whole milliseconds, too coarse for
 * sub-millisecond reads.
 */
export async function drive(o: DriveOptions, plan: RequestPlan): Promise<Measure> {
  // autocannon starts a connection's context afresh after every pass over its list of requests, so a client's state
  // lives in a pool instead: a request takes one that is not in flight and gives it back with its response.
  const idle: Ctx[] = [];
  const clientOf = (ctx: Ctx): Ctx => (ctx.client ??= idle.pop() ?? {});
  const run = (length: { duration: number } | { amount: number }, latencies?: number[]) => {
    const tracker = autocannon({
      url: o.url,
      connections: o.connections,
      ...(o.rate ? { overallRate: Math.max(1, Math.round(o.rate)) } : {}),
      ...length,
      // autocannon notices the end of a run only at a sample tick (1 s by default): a 0.5 s run took 1 s.
      sampleInt: SAMPLE_MS,
      requests: [
        {
          method: (plan.method ?? 'GET') as any,
          headers: plan.headers,
          body: typeof plan.body === 'string' ? plan.body : undefined,
          setupRequest: (req: any, ctx: Ctx) => {
            const client = clientOf(ctx);
            const path = plan.path(client);
            return { ...req, path, ...(typeof plan.body === 'function' ? { body: plan.body(client) } : {}) };
          },
          onResponse: (status: number, body: string, ctx: Ctx) => {
            const client = clientOf(ctx);
            plan.onResponse?.(status, body, client);
            idle.push(client);
          },
        },
      ],
    }) as any;
    if (latencies) {
      tracker.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status >= 200 && status < 300) latencies.push(ms);
      });
    }
    return tracker as Promise<any>;
  };
  if (o.warmup > 0) await run({ duration: o.warmup });
  const latencies: number[] = [];
  const usage = serverUsageFrom(o.pid);
  const storeUsage = serverUsageFrom(o.storePid);
  const r: any = await run(o.requests ? { amount: o.requests } : { duration: o.duration }, latencies);
  const used = usage(r.requests.total);
  const storeCpuUs = storeUsage(r.requests.total).cpuUs;
  latencies.sort((a, b) => a - b);
  return {
    rps: r.requests.total / ((r.duration ?? o.duration) || o.duration),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    bytes: r.requests.total ? r.throughput.total / r.requests.total : 0,
    load1: loadavg()[0],
    ...used,
    storeCpuUs,
  };
}

/** The server's CPU and storage reads per request from now until the returned function is called (NaN without a pid). */
function serverUsageFrom(pid: number | undefined): (requests: number) => Pick<Measure, 'cpuUs' | 'storageKiB'> {
  if (!pid) return () => ({ cpuUs: NaN, storageKiB: NaN });
  const cpu = cpuSecondsOf(pid);
  const storage = storageReadBytesOf(pid);
  return (requests) => ({
    cpuUs: ((cpuSecondsOf(pid) - cpu) * 1e6) / requests,
    storageKiB: (storageReadBytesOf(pid) - storage) / 1024 / requests,
  });
}

/** The `p` quantile of ascending `sorted` values (NaN when there are none). */
export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;

export interface Step {
  method: string;
  path: string;
  body?: unknown;
  /** Expected status; anything else ends the scenario with the step named. */
  status: number;
  /** The API key to call with (`broker` unless said). */
  key?: string;
}

/**
 * A chain of dependent requests (framework → submission → qualification), run by `workers` concurrent loops
 * for `duration` seconds over keep-alive connections. Reports chains/s and chain latency; stops at the first
 * unexpected status and says which step failed.
 */
export async function driveChain(
  o: DriveOptions,
  chain: (call: (step: Step) => Promise<any>) => Promise<void>,
): Promise<Measure & { failure?: string; chains: number }> {
  const latencies: number[] = [];
  let requests = 0;
  let failure: string | undefined;
  const call = async (step: Step) => {
    const res = await fetch(`${o.url}${step.path}`, {
      method: step.method,
      headers: { authorization: `Bearer ${step.key ?? 'broker'}`, 'content-type': 'application/json' },
      body: step.body === undefined ? undefined : JSON.stringify(step.body),
    });
    requests++;
    const text = await res.text();
    if (res.status !== step.status)
      throw new Error(`${step.method} ${step.path.replace(/\?.*/, '')} → ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
  const loop = async (until: number, record: boolean) => {
    while (Date.now() < until && !failure) {
      const t0 = performance.now();
      try {
        await chain(call);
      } catch (err) {
        failure = (err as Error).message;
        return;
      }
      if (record) latencies.push(performance.now() - t0);
    }
  };
  const workers = Math.max(1, Math.min(o.connections, 8));
  if (o.warmup > 0) await Promise.all(Array.from({ length: workers }, () => loop(Date.now() + o.warmup * 1000, false)));
  requests = 0;
  const started = performance.now();
  const usage = serverUsageFrom(o.pid);
  const storeUsage = serverUsageFrom(o.storePid);
  await Promise.all(Array.from({ length: workers }, () => loop(Date.now() + o.duration * 1000, true)));
  const used = usage(requests);
  const storeCpuUs = storeUsage(requests).cpuUs;
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests,
    non2xx: failure ? 1 : 0,
    errors: 0,
    bytes: 0,
    load1: loadavg()[0],
    ...used,
    storeCpuUs,
    failure,
    chains: latencies.length,
  };
}

/** `next_page.path` of a feed page, found without parsing the whole page (its `&` may come escaped as `\u0026`). */
export function nextPath(body: string): string | null {
  const at = body.lastIndexOf('"next_page":');
  if (at < 0) return null;
  const m = /"path":"([^"]+)"/.exec(body.slice(at));
  return m ? m[1].replace(/\\u0026/g, '&') : null;
}

export const isEmptyPage = (body: string) => body.startsWith('{"data":[]');
