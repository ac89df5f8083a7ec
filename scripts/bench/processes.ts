import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '../..');

export interface Running {
  url: string;
  /** The product's metrics listener (METRICS_PORT); the baseline has none. */
  metricsUrl?: string;
  pid: number;
  /** Resident and peak resident set size of the process, in MiB (the kernel's process files). */
  memory(): { rssMB: number; peakMB: number };
  stop(): Promise<void>;
}

/** Where Linux shows its processes and memory as files; elsewhere they are missing and the figures NaN. */
const KERNEL_FILES = '/proc';

/** The text of one of the kernel's files, or null where there is none (another OS, a process that has exited). */
function procText(path: string): string | null {
  try {
    return readFileSync(join(KERNEL_FILES, path), 'utf8');
  } catch {
    return null;
  }
}

/** The number a pattern's first group finds in a kernel file; NaN where the file or the field is missing. */
const procNumber = (text: string | null, pattern: RegExp) => Number((text && pattern.exec(text)?.[1]) ?? NaN);

export function memoryOf(pid: number) {
  const status = procText(`${pid}/status`);
  return { rssMB: procNumber(status, /^VmRSS:\s+(\d+)/m) / 1024, peakMB: procNumber(status, /^VmHWM:\s+(\d+)/m) / 1024 };
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux build node runs on

/** User + system CPU seconds a process has used (Linux only; NaN elsewhere). */
export function cpuSecondsOf(pid: number): number {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = procText(`${pid}/stat`)?.split(') ')[1]?.split(' ');
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : NaN;
}

/** Bytes a process has made the kernel read from storage, not from the page cache (Linux only; NaN elsewhere). */
export const storageReadBytesOf = (pid: number): number => procNumber(procText(`${pid}/io`), /^read_bytes: (\d+)$/m);

/** The kernel's page cache, in MiB (`meminfo`'s `Cached`; NaN elsewhere). */
export const pageCacheMB = (): number => procNumber(procText('meminfo'), /^Cached:\s+(\d+) kB$/m) / 1024;

/** CPU time spent by every core of the machine so far, in seconds (all but idle time). */
export const machineCpuSeconds = (): number =>
  cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0) / 1000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

async function waitReady(url: string, child: ChildProcess, stderr: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`product exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`product not ready after 30 s: ${stderr()}`);
}

/**
 * The product in its own process on the embedded store: `node dist/src/main.js` (after the build) or, with
 * `runner: 'tsx'`, the TypeScript entry through tsx. Extra node flags (e.g. `--cpu-prof`) pass through.
 */
export async function startProduct(o: {
  db: string;
  runner: 'dist' | 'tsx';
  logLevel: string;
  nodeArgs?: string[];
  /** The store to serve instead of the SQLite file `db` (a `mongodb://` URL). */
  storeUrl?: string;
  /** More configuration, over the bench's own. */
  env?: Record<string, string>;
}): Promise<Running> {
  const port = await freePort();
  const metricsPort = await freePort();
  const entry = o.runner === 'dist' ? ['dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), ...entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
      ROLE: 'api',
      STORE_URL: o.storeUrl ?? `sqlite:${o.db}`,
      SESSION_SECRET: 'bench-session-secret-0123456789',
      NODE_ID: 'bench',
      LOG_LEVEL: o.logLevel,
      AUTH_FILE: join(ROOT, 'auth.ini'),
      // The lifecycle chain's tenders run their periods accelerated (scripts/bench/lifecycle-chain.ts).
      SANDBOX_MODE: '1',
      ...o.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child, () => err);
  return {
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    pid: child.pid!,
    memory: () => memoryOf(child.pid!),
    stop: stopper(child),
  };
}

/** The bare-Koa baseline, answering the given payloads (see baseline.ts). */
export async function startBaseline(payloadFile: string): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'baseline.ts'), payloadFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /READY (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`baseline exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, memory: () => memoryOf(child.pid!), stop: stopper(child) };
}
