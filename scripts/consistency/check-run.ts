import type { Cluster } from '../../cluster/launcher';
import { checkWithAdya, type ElleVerdict } from './elle';
import { aFramework, parseStamp } from './framework-body';
import type { Outcome } from './history';
import { runNemeses, type Fault, type Nemesis } from './nemesis';
import { LOCAL_TTL_MS, startLocalCluster, type LocalCluster } from './local-cluster';
import { newClientStats, SessionClient } from './session-client';
import { newShared, SimulatedClient, type Operation, type Shared } from './simulated-client';
import type { Violations } from './violations';

export interface CheckOptions {
  /** Base URLs of the API nodes (e.g. http://127.0.0.1:8080). Omit with killNode to start a local cluster. */
  targets?: string[];
  clients: number;
  /** How long the clients run; with `operations`, the most they may run. */
  seconds: number;
  /** Operations per client, for runs whose size must not depend on the machine's speed. */
  operations?: number;
  /** Kill an API node of the local cluster mid-run, probe its clients' cookies, restart it. */
  killNode?: boolean;
  /** The local cluster to drive for killNode (started here when absent). */
  cluster?: Cluster;
  /** API nodes of a cluster started here. */
  nodes?: number;
  /** The store of a cluster started here; a temporary SQLite file when absent. */
  storeUrl?: string;
  /** The cluster's heartbeat TTL: how long a killed node still counts as alive. */
  heartbeatTtlMs?: number;
  /** Faults to compose on the local cluster, in this order (scripts/consistency/nemesis.ts). */
  nemesis?: Nemesis[];
  /** The store server's process id, for the pause nemesis. */
  storePid?: number;
  /** Write the run's history (Elle's list-append JSON lines) here and check it with adya too. */
  historyPath?: string;
  progress?: (line: string) => void;
}

export interface KillReport {
  node: string;
  killedAtS: number;
  restartedAtS: number;
  /** Sessions whose cookie named the killed node when it died (with a write to look for), a witness included. */
  clients: number;
  /** Of those, how many got 412 with the old cookie and then read their write with the new one. */
  recovered: number;
}

export interface Summary {
  targets: string[];
  clients: number;
  /** How long the clients ran. */
  elapsedS: number;
  operations: Record<Operation, number>;
  preconditionFailed: number;
  unreachable: number;
  writesRepeated: number;
  latencyMs: { p50: number; p95: number; p99: number };
  violations: Violations;
  objectsVerified: number;
  kill: KillReport | null;
  /** The nemeses' faults, with their recovery times. */
  faults: Fault[];
  /** Operations of the recorded history by outcome: ok, failed, indeterminate. */
  outcomes: Record<Outcome, number>;
  /** Answers 500 and above other than the documented 503. */
  serverErrors: number;
  /** Nemeses asked for that could not run here, and why. */
  skipped: string[];
  /** The independent checker's verdict on the recorded history, when one was asked for. */
  elle: (ElleVerdict & { operations: number; path: string }) | null;
}

/** Runs the simulated clients against the targets and verifies every session guarantee; see summary(). */
export async function runConsistencyCheck(options: CheckOptions): Promise<Summary> {
  const faulty = options.killNode || !!options.nemesis?.length;
  if (faulty && options.targets?.length && !options.cluster) {
    throw new Error('--kill-node and --nemesis drive a local cluster they start themselves: drop --targets');
  }
  const own =
    faulty && !options.cluster
      ? await startLocalCluster({ nodes: options.nodes ?? 3, storeUrl: options.storeUrl, nemesis: options.nemesis })
      : null;
  const cluster = options.cluster ?? own?.cluster ?? null;
  try {
    const targets = options.targets?.length ? options.targets : (own?.targets ?? cluster!.api.map((n) => n.url));
    return await check(targets, cluster, own, { ...options, heartbeatTtlMs: options.heartbeatTtlMs ?? LOCAL_TTL_MS });
  } finally {
    await own?.stop();
  }
}

async function check(targets: string[], cluster: Cluster | null, own: LocalCluster | null, options: CheckOptions): Promise<Summary> {
  const log = options.progress ?? (() => {});
  const shared = newShared();
  const clients = Array.from({ length: options.clients }, (_, i) => new SimulatedClient(i, () => targets, shared));
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  // The clients keep going until a kill and restart are over, however long those take, so that the restarted
  // node serves them again before the end.
  let faulting = !!((options.killNode || options.nemesis?.length) && cluster);
  const budgetSpent = (done: number) => Date.now() >= deadline || (options.operations !== undefined && done >= options.operations);
  const running = clients.map((c) => c.run((done) => !faulting && budgetSpent(done)));
  const kill =
    options.killNode && cluster ? await killAndRestart(cluster, clients, started, deadline, options.heartbeatTtlMs!, shared, log) : null;
  const faults =
    options.nemesis?.length && cluster
      ? await runNemeses(cluster, options.nemesis, {
          started,
          deadline,
          ttlMs: options.heartbeatTtlMs!,
          storePid: options.storePid,
          targets,
          routes: own?.routes,
          clocks: own?.clocks,
          log,
        })
      : [];
  faulting = false;
  await Promise.all(running);
  const elapsedS = (Date.now() - started) / 1000;
  log(`verifying ${shared.acknowledged.size} objects from fresh sessions`);
  await verifyNothingLost(targets, shared);
  let elle: Summary['elle'] = null;
  if (options.historyPath) {
    shared.history.write(options.historyPath);
    log(`checking ${shared.history.size} operations of ${options.historyPath} with adya`);
    elle = { ...checkWithAdya(options.historyPath), operations: shared.history.size, path: options.historyPath };
  }
  return {
    targets,
    clients: options.clients,
    elapsedS,
    operations: shared.operations,
    preconditionFailed: shared.stats.preconditionFailed,
    unreachable: shared.stats.unreachable,
    writesRepeated: shared.stats.writesRepeated,
    latencyMs: {
      p50: shared.stats.latencies.percentile(50),
      p95: shared.stats.latencies.percentile(95),
      p99: shared.stats.latencies.percentile(99),
    },
    violations: shared.violations,
    objectsVerified: shared.acknowledged.size,
    kill,
    faults,
    skipped: own?.skipped ?? [],
    outcomes: shared.history.outcomes(),
    serverErrors: shared.stats.serverErrors,
    elle,
  };
}

/**
 * Kills the last API node a third into the run. Once its heartbeat has expired, every client whose cookie
 * named it repeats a read of its own object with that cookie: it must get 412, retry with the new cookie,
 * and see its acknowledged write. Then the node is started again.
 */
async function killAndRestart(
  cluster: Cluster,
  clients: SimulatedClient[],
  started: number,
  deadline: number,
  ttlMs: number,
  shared: Shared,
  log: (line: string) => void,
): Promise<KillReport> {
  const victim = cluster.api[cluster.api.length - 1];
  await sleepUntil(started + (deadline - started) * 0.3);
  const held = clients
    .filter((c) => c.http.cookieNode() === victim.id)
    .map((c) => ({ client: c.index, cookie: c.http.cookie!, object: c.acknowledgedObject() }))
    .filter((h): h is { client: number; cookie: string; object: { id: string; version: number } } => !!h.object);
  held.push(await witness(victim.url, shared));
  await cluster.kill(victim.id);
  const killedAtS = (Date.now() - started) / 1000;
  log(`killed ${victim.id} at ${killedAtS.toFixed(1)} s; ${held.length} clients held its cookie`);
  await sleep(ttlMs + 1000);
  const alive = cluster.api.filter((n) => n.running).map((n) => n.url);
  let recovered = 0;
  for (const h of held) {
    const stats = newClientStats();
    const probe = new SessionClient(() => alive, stats);
    probe.cookie = h.cookie;
    const reply = await probe.request('GET', `/api/2.5/frameworks/${h.object.id}`).catch(() => null);
    const version = reply?.status === 200 ? parseStamp(reply.body.data.description).version : -1;
    shared.stats.preconditionFailed += stats.preconditionFailed;
    if (stats.preconditionFailed > 0 && reply?.status === 200 && version >= h.object.version) recovered++;
    else if (reply?.status !== 200 || version < h.object.version) {
      shared.violations.add({
        guarantee: 'read-your-writes',
        client: h.client,
        detail: `after ${victim.id} died: ${h.object.id} answered ${reply?.status} v${version}, wrote v${h.object.version}`,
      });
    }
  }
  await cluster.restart(victim.id);
  const restartedAtS = (Date.now() - started) / 1000;
  log(`restarted ${victim.id} at ${restartedAtS.toFixed(1)} s`);
  return { node: victim.id, killedAtS, restartedAtS, clients: held.length, recovered };
}

/** A session that certainly holds the victim's cookie: it writes one object there just before the kill. */
async function witness(victimUrl: string, shared: Shared) {
  const http = new SessionClient(() => [victimUrl], newClientStats());
  const created = await http.request('POST', '/api/2.5/frameworks', { data: aFramework('kill-node witness') });
  if (created.status !== 201) throw new Error(`witness write on the victim: ${created.status}`);
  shared.acknowledged.set(created.body.data.id, 0);
  return { client: -1, cookie: http.cookie!, object: { id: created.body.data.id as string, version: 0 } };
}

/** Every acknowledged write must still be on some node, read by sessions that have seen nothing. */
async function verifyNothingLost(targets: string[], shared: Shared): Promise<void> {
  const live = (await Promise.all(targets.map(async (t) => ((await isReady(t)) ? t : null)))).filter((t): t is string => !!t);
  const ids = [...shared.acknowledged.keys()];
  const stats = newClientStats();
  const versionOn = async (target: string, id: string) => {
    const reply = await new SessionClient(() => [target], stats).request('GET', `/api/2.5/frameworks/${id}`).catch(() => null);
    return reply?.status === 200 ? parseStamp(reply.body.data.description).version : -1;
  };
  const worker = async () => {
    for (let id = ids.pop(); id; id = ids.pop()) {
      const acknowledged = shared.acknowledged.get(id)!;
      const found = Math.max(...(await Promise.all(live.map((target) => versionOn(target, id)))));
      if (found < acknowledged) {
        shared.violations.add({ guarantee: 'lost-write', client: -1, detail: `${id}: v${acknowledged} acknowledged, v${found} found` });
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const isReady = (target: string) =>
  fetch(`${target}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
    (res) => res.status === 200,
    () => false,
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));
