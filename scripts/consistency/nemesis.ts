import type { Cluster } from '../../cluster/launcher';
import { aFramework } from './framework-body';
import { JUMP_BACK, type Clocks } from './clocks';
import { answersLost, blackHole, degraded, refused, type Routes } from './partition';
import { newClientStats, SessionClient } from './session-client';

/** Every nemesis `npm run consistency -- --nemesis a,b` composes, with what it does (its --help text). */
export const NEMESES = {
  pause:
    'SIGSTOP the last API node past the membership TTL (a GC pause, a frozen VM), then SIGCONT: its cookies get 412 ' +
    'elsewhere meanwhile and, resumed, it serves nothing older than a client has seen; then Redis; then the store ' +
    'server (STORE_PID, e.g. data/mongo-test-server/PORT.pid)',
  kill: 'kill -9 the last API node (a crash), keep it down past the TTL, start it again with the same NODE_ID',
  restart: 'a rolling restart (a deployment): SIGTERM each API node in turn, then a replacement with a new NODE_ID',
  partition:
    'Toxiproxy between every node and its clients, its Redis and (MongoDB) its store, started by the run ' +
    "(TOXIPROXY_SERVER, or toxiproxy-server on PATH; skipped without): the last node's clients reset (reset_peer), " +
    'then its answers lost (timeout), its Redis link, then its store link silently cut (timeout), then both reset ' +
    'while every other link is slow (latency, bandwidth); each past the TTL, then healed',
  clock:
    'every API node under libfaketime (skipped without) from the start: api-2 90 s ahead and gaining 1 ms/s, api-3 ' +
    "a minute behind; mid-run api-3's wall clock jumps 4 minutes back, past the TTL, then forward again " +
    '(docs/cluster.md §Clock skew says what that may and may not break)',
} as const;
export type Nemesis = keyof typeof NEMESES;

export function parseNemeses(list: string): Nemesis[] {
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const n of names) if (!(n in NEMESES)) throw new Error(`--nemesis: unknown ${n} (known: ${Object.keys(NEMESES).join(', ')})`);
  return names as Nemesis[];
}

/** One fault: what was hit, when, and how long after the heal every API node served a new session again. */
export interface Fault {
  nemesis: Nemesis;
  target: string;
  injectedAtS: number;
  healedAtS: number;
  /** Null when some node still failed a write and read-back RECOVERY_LIMIT_MS after the heal. */
  recoveryMs: number | null;
}

export interface NemesisOptions {
  started: number;
  deadline: number;
  ttlMs: number;
  /** The store server's process, paused by `pause` (MongoDB started by scripts/mongo-test-server.sh). */
  storePid?: number;
  /** The clients' targets, through which recovery is measured. */
  targets: string[];
  /** The cluster's links through Toxiproxy, for `partition` (absent: partition is skipped). */
  routes?: Routes;
  /** The API nodes' skewed clocks, for `clock` (absent: clock is skipped). */
  clocks?: Clocks;
  log: (line: string) => void;
}

const RECOVERY_LIMIT_MS = 60_000;

/**
 * Runs the nemeses one after another, each in its own slot of the run's middle 80 %: inject, hold past the membership
 * TTL, heal, then time the recovery. Returns every fault for the report.
 */
export async function runNemeses(cluster: Cluster, nemeses: Nemesis[], options: NemesisOptions): Promise<Fault[]> {
  const faults: Fault[] = [];
  const span = options.deadline - options.started;
  const at = () => (Date.now() - options.started) / 1000;
  const hold = () => sleep(options.ttlMs + 1000);
  const fault = async (nemesis: Nemesis, target: string, inject: () => Promise<void> | void, heal: () => Promise<void> | void) => {
    const injectedAtS = at();
    await inject();
    await hold();
    await heal();
    const healedAtS = at();
    const recoveryMs = await recovery(options.targets);
    faults.push({ nemesis, target, injectedAtS, healedAtS, recoveryMs });
    options.log(`${nemesis} ${target}: ${injectedAtS.toFixed(1)}–${healedAtS.toFixed(1)} s, recovered in ${recoveryMs ?? '>60000'} ms`);
  };
  const victim = cluster.api[cluster.api.length - 1];
  for (const [i, nemesis] of nemeses.entries()) {
    await sleep(options.started + span * (0.1 + (0.8 * i) / nemeses.length) - Date.now());
    if (nemesis === 'pause') {
      await fault(
        nemesis,
        victim.id,
        () => cluster.signal(victim.id, 'SIGSTOP'),
        () => cluster.signal(victim.id, 'SIGCONT'),
      );
      const redisPid = cluster.redisPid;
      if (redisPid)
        await fault(
          nemesis,
          'redis',
          () => signal(redisPid, 'SIGSTOP'),
          () => signal(redisPid, 'SIGCONT'),
        );
      const storePid = options.storePid;
      if (storePid)
        await fault(
          nemesis,
          'store',
          () => signal(storePid, 'SIGSTOP'),
          () => signal(storePid, 'SIGCONT'),
        );
    } else if (nemesis === 'kill') {
      await fault(
        nemesis,
        victim.id,
        () => cluster.kill(victim.id),
        () => cluster.restart(victim.id),
      );
    } else if (nemesis === 'clock') {
      const clocks = options.clocks;
      if (clocks)
        await fault(
          nemesis,
          `${victim.id} ${clocks.skew(cluster.api.length - 1)} → ${JUMP_BACK} s`,
          () => clocks.set(victim.id, JUMP_BACK),
          () => clocks.set(victim.id, clocks.skew(cluster.api.length - 1)),
        );
    } else if (nemesis === 'partition') {
      if (options.routes) await partition(options.routes, cluster, fault);
    } else {
      for (const node of cluster.api) {
        const replacement = `${node.id}-r${Math.round(at())}`;
        await fault(
          nemesis,
          node.id,
          () => cluster.kill(node.id, 'SIGTERM'),
          () => cluster.restart(node.id, { NODE_ID: replacement }),
        );
      }
    }
  }
  return faults;
}

/** One line per fault, with its recovery time after the heal, and one per nemesis that could not run. */
export function nemesisLines(faults: Fault[], skipped: string[]): string[] {
  return [
    ...faults.map(
      (f) =>
        `nemesis      ${f.nemesis.padEnd(9)} ${f.target} ${f.injectedAtS.toFixed(1)}–${f.healedAtS.toFixed(1)} s, ` +
        `recovered ${f.recoveryMs === null ? 'NOT within 60 s' : `${f.recoveryMs} ms`} after the heal`,
    ),
    ...skipped.map((why) => `nemesis      skipped ${why}`),
  ];
}

const signal = (pid: number, name: NodeJS.Signals) => {
  process.kill(pid, name);
};

type Inject = (nemesis: Nemesis, target: string, inject: () => Promise<void>, heal: () => Promise<void>) => Promise<void>;

/** The partitions, one at a time and then together, of the last API node (docs/cluster.md §Nemeses). */
async function partition(routes: Routes, cluster: Cluster, fault: Inject) {
  const victim = cluster.api[cluster.api.length - 1].id;
  const others = cluster.api.slice(0, -1).map((n) => n.id);
  let heal = async () => {};
  const cut = (target: string, run: () => Promise<() => Promise<void>>) =>
    fault(
      'partition',
      target,
      async () => {
        heal = await run();
      },
      () => heal(),
    );
  await cut(`client↔${victim} reset`, () => routes.cut([victim], ['client'], refused));
  await cut(`client↔${victim} answers lost`, () => routes.cut([victim], ['client'], answersLost));
  await cut(`${victim}↔redis silent`, () => routes.cut([victim], ['redis'], blackHole));
  if (routes.has(victim, 'store')) await cut(`${victim}↔store silent`, () => routes.cut([victim], ['store'], blackHole));
  await cut(`${victim}↔${routes.has(victim, 'store') ? 'redis+store' : 'redis'} reset, others slow`, async () => {
    const isolated = await routes.cut([victim], ['redis', 'store'], refused);
    const slow = await routes.cut(others, ['client', 'redis', 'store'], degraded);
    return async () => {
      await isolated();
      await slow();
    };
  });
}

/** Time until a fresh session writes a framework through every target and reads it back there. */
async function recovery(targets: string[]): Promise<number | null> {
  const started = Date.now();
  const serves = async (url: string) => {
    const http = new SessionClient(() => [url], newClientStats());
    const created = await http.request('POST', '/api/2.5/frameworks', { data: aFramework('nemesis probe') });
    if (created.status !== 201) return false;
    return (await http.request('GET', `/api/2.5/frameworks/${created.body.data.id}`)).status === 200;
  };
  for (const url of targets) {
    while (!(await serves(url).catch(() => false))) {
      if (Date.now() - started > RECOVERY_LIMIT_MS) return null;
      await sleep(100);
    }
  }
  return Date.now() - started;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
