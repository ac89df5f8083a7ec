import { setTimeout as sleep } from 'node:timers/promises';
import { HEARTBEAT_TTL_MS, startTestCluster } from '../../test/cluster/fixtures';
import { aFramework } from '../../test/fixtures/frameworks';
import { CookieJar, request } from '../../test/fixtures/server';
import type { Cluster } from '../../cluster/launcher';
import { FEED_DELAY_BOUND_MS } from '../../src/store/mongo/feed-floors';
import { runWriteStorm, type StormResult } from './write-storm';

export interface ClusterStormOptions {
  nodes: number;
  objects: number;
  writersPerObject: number;
  writesPerWriter: number;
  /** kill -9 one API node (not the crawler's) when half of the writes are acknowledged. */
  killNode: boolean;
}

export interface ClusterStormResult extends StormResult {
  faultsInjected: number;
  faultsSurvived: number;
}

/** The write storm over N API node processes sharing one store (SQLite file, or MongoDB with MONGODB_URL) and Redis. */
export async function runClusterStorm(options: ClusterStormOptions): Promise<ClusterStormResult> {
  const cluster = await startTestCluster({ nodes: options.nodes });
  try {
    let killSurvived: Promise<boolean> | undefined;
    const result = await runWriteStorm({
      targets: cluster.api.map((n) => n.url),
      storeUrl: cluster.storeUrl,
      sessionSecret: cluster.sessionSecret,
      objects: options.objects,
      writersPerObject: options.writersPerObject,
      writesPerWriter: options.writesPerWriter,
      feedSettleMs: cluster.storeUrl.startsWith('mongodb') ? FEED_DELAY_BOUND_MS : 0,
      atHalfway: options.killNode
        ? async () => {
            killSurvived = killWithWitness(cluster);
            await killSurvived;
          }
        : undefined,
    });
    const survived = killSurvived ? await killSurvived : false;
    return {
      ...result,
      faultsInjected: options.killNode ? 1 : 0,
      faultsSurvived: survived && result.lost === 0 && result.serverErrors === 0 ? 1 : 0,
    };
  } finally {
    await cluster.stop();
  }
}

/**
 * kill -9 of node 2 just after a witness client wrote through it: once the node's heartbeat expires, the
 * witness's cookie gets 412 on another node, and the retry reads the acknowledged write.
 */
async function killWithWitness(cluster: Cluster): Promise<boolean> {
  const [survivor, victim] = cluster.api;
  const jar = new CookieJar();
  const created = await request(victim.url, 'POST', '/api/2.5/frameworks', {
    key: 'broker',
    jar,
    body: { data: aFramework(new Date(), { title: 'witness' }) },
  });
  await cluster.kill(victim.id);
  const path = `/api/2.5/frameworks/${created.body.data.id}`;
  await untilRefused(survivor.url, path, jar.session);
  const refused = await request(survivor.url, 'GET', path, { key: 'broker', jar });
  const retried = await request(survivor.url, 'GET', path, { key: 'broker', jar });
  return created.status === 201 && refused.status === 412 && retried.status === 200 && retried.body.data.title === 'witness';
}

/**
 * Waits until `target` answers 412 to the cookie `session` names, that is until it sees that cookie's node gone: its
 * heartbeat expires after HEARTBEAT_TTL_MS, later on a loaded machine. Each probe carries a copy of the cookie, since
 * an answer other than 412 sets a new one.
 */
async function untilRefused(target: string, path: string, session: string | undefined): Promise<void> {
  for (const until = Date.now() + 10 * HEARTBEAT_TTL_MS; Date.now() < until;) {
    await sleep(HEARTBEAT_TTL_MS / 5);
    const probe = new CookieJar();
    probe.session = session;
    if ((await request(target, 'GET', path, { key: 'broker', jar: probe })).status === 412) return;
  }
}
