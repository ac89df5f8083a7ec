import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestServer, type TestServer } from '../../test/fixtures/server';
import { buildWorld } from './fuzz';

/**
 * The worst body shapes a client can send within BODY_LIMIT, as JSON text of about `bytes` bytes: every
 * element, key or character is work for the node (docs/platform.md §Limits).
 */
const SHAPES: Record<string, (bytes: number) => string> = {
  'array of scalars': (bytes) => repeated('1', 2, bytes),
  'array of {}': (bytes) => repeated('{}', 3, bytes),
  'array of bad objects (many errors each)': (bytes) => {
    const element = JSON.stringify({ id: 1, identifier: 1, contactPoint: 1, address: 1, name: 1, value: 1, x: 1 });
    return repeated(element, element.length + 1, bytes);
  },
  'elements with over-long nested lists': (bytes) => {
    const element = JSON.stringify({ additionalContactPoints: Array(400).fill(1), additionalClassifications: Array(400).fill(1) });
    return repeated(element, element.length + 1, bytes);
  },
  'deep nesting': (bytes) => `${'{"a":['.repeat(Math.floor(bytes / 8))}1${']}'.repeat(Math.floor(bytes / 8))}`,
  'many unknown keys': (bytes) => `{${Array.from({ length: Math.floor(bytes / 12) }, (_, i) => `"k${i}":1`).join(',')}}`,
  'long string': (bytes) => JSON.stringify('x'.repeat(bytes - 64)),
};

/** A JSON list of `element` that fills about `bytes` bytes, each element taking `size` of them. */
const repeated = (element: string, size: number, bytes: number) =>
  `[${Array(Math.floor(bytes / size))
    .fill(element)
    .join(',')}]`;

/** Where a shape goes in a body: as the whole of `data`, or in place of a list the body may carry. */
const PLACES = [
  'data',
  'items',
  'tenderers',
  'suppliers',
  'additionalClassifications',
  'lots',
  'documents',
  'features',
  'milestones',
  'additionalContactPoints',
];

const HOLE = '@@shape@@';

export interface BoundedWorkResult {
  requests: number;
  serverErrors: number;
  /** Largest event-loop delay seen while one hostile request was served, ms. */
  maxLoopDelayMs: number;
  worst: string;
  /**
   * The most CPU time one request took (the whole process: server, client and pinger), ms: unlike the
   * loop delay, it does not grow when other processes hold the machine's cores.
   */
  maxCpuMs: number;
  worstByCpu: string;
  /** The requests that took the most CPU time: what, CPU ms, loop delay ms. */
  costliest: [string, number, number][];
  /** The largest loop delay each shape caused, ms. */
  byShape: Record<string, number>;
  healthzP99Ms: number;
  healthzMaxMs: number;
  examples: string[];
}

/**
 * Sends every shape at every place to every create/patch route, one request at a time, while a client
 * asks `/healthz` in a loop. The server runs in this process, so `monitorEventLoopDelay` sees its loop;
 * the bodies are serialized before the histogram is reset, so the client's own work is not counted.
 */
export async function runBoundedWork(): Promise<BoundedWorkResult> {
  const server = await startTestServer();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  try {
    const { endpoints } = await buildWorld(server);
    const writes = endpoints.filter((e) => e.method !== 'GET');
    const result: BoundedWorkResult = {
      requests: 0,
      serverErrors: 0,
      maxLoopDelayMs: 0,
      worst: '',
      maxCpuMs: 0,
      worstByCpu: '',
      costliest: [],
      byShape: {},
      healthzP99Ms: 0,
      healthzMaxMs: 0,
      examples: [],
    };
    const healthz: number[] = [];
    const room = server.config.bodyLimit - 256;
    for (const endpoint of writes) {
      for (const [shapeName, shape] of Object.entries(SHAPES)) {
        for (const place of PLACES) {
          const data = place === 'data' ? HOLE : { ...(endpoint.valid?.data as object), [place]: HOLE };
          const raw = JSON.stringify({ ...endpoint.valid, data }).replace(`"${HOLE}"`, shape(room - 2048));
          histogram.reset();
          const cpuBefore = process.cpuUsage();
          if (raw.length < room / 2) throw new Error(`the shape was not placed: ${raw.slice(0, 100)}`);
          const reply = await whilePinging(server, healthz, () =>
            server.request(endpoint.method, endpoint.path, { key: endpoint.key, token: endpoint.token, raw }),
          );
          const delay = histogram.max / 1e6;
          const cpu = process.cpuUsage(cpuBefore);
          const cpuMs = (cpu.user + cpu.system) / 1000;
          const what = `${shapeName} at ${place}, ${endpoint.method} ${endpoint.path.replace(/[0-9a-f]{32}/g, '{id}')}`;
          result.costliest = [...result.costliest, [what, cpuMs, delay] as [string, number, number]]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 8);
          if (cpuMs > result.maxCpuMs) {
            result.maxCpuMs = cpuMs;
            result.worstByCpu = what;
          }
          result.requests++;
          result.byShape[shapeName] = Math.max(result.byShape[shapeName] ?? 0, delay);
          if (delay > result.maxLoopDelayMs) {
            result.maxLoopDelayMs = delay;
            result.worst = what;
          }
          if (reply.status >= 500 && result.examples.length < 5)
            result.examples.push(`${endpoint.method} ${endpoint.path} ${shapeName} at ${place} → ${reply.status}`);
          if (reply.status >= 500) result.serverErrors++;
        }
      }
    }
    healthz.sort((a, b) => a - b);
    result.healthzP99Ms = healthz[Math.min(healthz.length - 1, Math.floor(healthz.length * 0.99))] ?? 0;
    result.healthzMaxMs = healthz[healthz.length - 1] ?? 0;
    return result;
  } finally {
    histogram.disable();
    await server.close();
  }
}

/** Runs `work`, asking `/healthz` one request after another until it ends; each answer time goes to `times`. */
async function whilePinging<T>(server: TestServer, times: number[], work: () => Promise<T>): Promise<T> {
  let done = false;
  const pinger = (async () => {
    while (!done) {
      const started = performance.now();
      await server.request('GET', '/healthz');
      times.push(performance.now() - started);
    }
  })();
  try {
    return await work();
  } finally {
    done = true;
    await pinger;
  }
}
