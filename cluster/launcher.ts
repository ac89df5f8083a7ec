import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';
import { startLocalRedis, type LocalRedis } from './redis-server';

export interface ClusterOptions {
  /** How many ROLE=api nodes. */
  nodes: number;
  /** How to start one node; the built server by default (`npm run build` first). */
  command?: string[];
  /** Working directory of every node; the repository root by default. */
  cwd?: string;
  /** An existing Redis; otherwise a redis-server is started on a free loopback port. */
  redisUrl?: string;
  /** Shared by every node; a fresh SQLite file in a temporary directory by default. */
  storeUrl?: string;
  /** Extra environment for every node (LOG_LEVEL, HEARTBEAT_TTL_MS, …). */
  env?: Record<string, string>;
  /**
   * Extra environment for one API node, by index from 0, given the Redis and store every node shares (a fault proxy
   * routes one node's links through itself by rewriting them: scripts/consistency/partition.ts).
   */
  nodeEnv?: (index: number, shared: { redisUrl: string; storeUrl: string }) => Record<string, string> | Promise<Record<string, string>>;
  /** API node i listens on basePort + i and the worker after them; free ports when unset. */
  basePort?: number;
  /** Start a ROLE=worker node too (default true). */
  worker?: boolean;
  /**
   * Start the project's auction module against the first API node (docs/tenders.md §Auction), with the `auction` key
   * of the auth file; the built module by default, or `auctionCommand`. Off unless asked for.
   */
  auction?: boolean;
  auctionCommand?: string[];
  /** Each node's output goes to `<logDir>/<nodeId>.log`; discarded when unset. */
  logDir?: string;
  /** Told when a node exits without being asked to. */
  onUnexpectedExit?: (nodeId: string, code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface ClusterNode {
  id: string;
  role: 'api' | 'worker';
  url: string;
  /** False between kill() and restart(). */
  running: boolean;
}

export interface Cluster {
  redisUrl: string;
  /** The redis-server started for this cluster (none when `redisUrl` was given). */
  redisPid: number | null;
  storeUrl: string;
  sessionSecret: string;
  api: ClusterNode[];
  worker: ClusterNode | null;
  /** Kills a node (SIGKILL by default, as a crash) and waits until it is gone. */
  kill(nodeId: string, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts a killed node again, same port and environment, and waits until it is ready; `env` changes some of that
   * environment (a new NODE_ID: the pod that replaces it in a rolling update).
   */
  restart(nodeId: string, env?: Record<string, string>): Promise<void>;
  /** Sends a signal to a running node and returns at once: SIGSTOP and SIGCONT freeze and thaw it. */
  signal(nodeId: string, signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const REPO_ROOT = resolve(__dirname, '..').replace(/\/dist$/, '');

interface Managed {
  node: ClusterNode;
  env: Record<string, string>;
  child: ChildProcess | null;
  exited: Promise<void>;
  expectingExit: boolean;
  log: WriteStream | null;
}

/**
 * N API nodes, one worker and (unless given) a redis-server on this machine, sharing one store, one Redis and
 * one SESSION_SECRET, which cookies need to travel between nodes (docs/architecture.md §Sessions and causal tokens).
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const cwd = options.cwd ?? REPO_ROOT;
  const command = options.command ?? [process.execPath, join(cwd, 'dist/src/main.js')];
  const redis: LocalRedis | null = options.redisUrl ? null : await startLocalRedis();
  const redisUrl = options.redisUrl ?? redis!.url;
  // A store of its own, when none is given, lives as long as the cluster.
  const ownStoreDir = options.storeUrl ? null : mkdtempSync(join(tmpdir(), 'registry-cluster-'));
  const storeUrl = options.storeUrl ?? `sqlite:${join(ownStoreDir!, 'registry.db')}`;
  const sessionSecret = randomBytes(32).toString('hex');
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const common = {
    REDIS_URL: redisUrl,
    STORE_URL: storeUrl,
    SESSION_SECRET: sessionSecret,
    HOST: '127.0.0.1',
    AUTH_FILE: join(cwd, 'auth.ini'),
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const managed = new Map<string, Managed>();

  const spawnNode = (m: Managed) => {
    const child = spawn(command[0], command.slice(1), {
      cwd,
      env: { ...process.env, ...m.env },
      stdio: ['ignore', m.log ? 'pipe' : 'ignore', m.log ? 'pipe' : 'ignore'],
    });
    child.stdout?.pipe(m.log!, { end: false });
    child.stderr?.pipe(m.log!, { end: false });
    m.child = child;
    m.expectingExit = false;
    m.node.running = true;
    m.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        m.node.running = false;
        if (!m.expectingExit) options.onUnexpectedExit?.(m.node.id, code, signal);
        resolve();
      }),
    );
    return waitReady(m);
  };

  const add = async (id: string, role: 'api' | 'worker', extra: Record<string, string>, index: number) => {
    const port = options.basePort ? options.basePort + index : await freePort();
    const m: Managed = {
      node: { id, role, url: `http://127.0.0.1:${port}`, running: false },
      env: { ...common, ...extra, ROLE: role, NODE_ID: id, PORT: String(port) },
      child: null,
      exited: Promise.resolve(),
      expectingExit: false,
      log: options.logDir ? createWriteStream(join(options.logDir, `${id}.log`), { flags: 'a' }) : null,
    };
    managed.set(id, m);
    return m;
  };

  const stopNode = async (m: Managed, signal: NodeJS.Signals) => {
    if (!m.node.running || !m.child) return;
    m.expectingExit = true;
    m.child.kill(signal);
    const timer = setTimeout(() => m.child?.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await m.exited;
    clearTimeout(timer);
  };

  let auction: ChildProcess | null = null;
  const stopAuction = async () => {
    if (!auction || auction.exitCode !== null || auction.signalCode !== null) return;
    const gone = new Promise((resolve) => auction!.once('exit', resolve));
    auction.kill('SIGTERM');
    await gone;
  };
  const stopAll = async () => {
    await Promise.all([stopAuction(), ...[...managed.values()].map((m) => stopNode(m, 'SIGTERM'))]);
    managed.forEach((m) => m.log?.end());
    await redis?.stop();
    if (ownStoreDir) rmSync(ownStoreDir, { recursive: true, force: true });
  };

  try {
    const api = await Promise.all(
      Array.from({ length: options.nodes }, async (_, i) =>
        add(`api-${i + 1}`, 'api', (await options.nodeEnv?.(i, { redisUrl, storeUrl })) ?? {}, i),
      ),
    );
    const worker = options.worker === false ? null : await add('worker-1', 'worker', {}, options.nodes);
    // One at a time: the first creates the SQLite schema, and two cores do not gain from parallel start-ups.
    for (const m of [...api, ...(worker ? [worker] : [])]) await spawnNode(m);
    if (options.auction) auction = spawnAuction(options, cwd, api[0].node.url);
    return {
      redisUrl,
      redisPid: redis?.pid ?? null,
      storeUrl,
      sessionSecret,
      api: api.map((m) => m.node),
      worker: worker?.node ?? null,
      async kill(nodeId, signal = 'SIGKILL') {
        await stopNode(known(managed, nodeId), signal);
      },
      async restart(nodeId, env = {}) {
        const m = known(managed, nodeId);
        if (m.node.running) throw new Error(`${nodeId} is running`);
        Object.assign(m.env, env);
        await spawnNode(m);
      },
      signal(nodeId, signal) {
        known(managed, nodeId).child?.kill(signal);
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** The auction module: no port and no readiness, it only calls the API; its output goes to `<logDir>/auction.log`. */
function spawnAuction(options: ClusterOptions, cwd: string, apiUrl: string): ChildProcess {
  const command = options.auctionCommand ?? [process.execPath, join(cwd, 'dist/scripts/auction/main.js')];
  const log = options.logDir ? createWriteStream(join(options.logDir, 'auction.log'), { flags: 'a' }) : null;
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { ...process.env, API_URL: apiUrl, AUCTION_KEY: 'auction', POLL_MS: '1000' },
    stdio: ['ignore', log ? 'pipe' : 'ignore', log ? 'pipe' : 'ignore'],
  });
  if (log) {
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  return child;
}

function known(managed: Map<string, Managed>, nodeId: string): Managed {
  const m = managed.get(nodeId);
  if (!m) throw new Error(`no node ${nodeId} in this cluster`);
  return m;
}

/** Polls /readyz until 200; fails early if the process exits. */
async function waitReady(m: Managed): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let gone = false;
  void m.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${m.node.id} exited during start-up${m.log ? ` (see ${String(m.log.path)})` : ''}`);
    const ok = await fetch(`${m.node.url}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${m.node.id} not ready after ${READY_TIMEOUT_MS} ms`);
}
