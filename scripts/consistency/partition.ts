import type { Cluster } from '../../cluster/launcher';
import type { Toxic, Toxiproxy } from './toxiproxy';

/** The links the partition nemesis cuts (docs/cluster.md §Nemeses): broker to node, node to Redis, node to store. */
export type Link = 'client' | 'redis' | 'store';

/**
 * Every API node's links routed through a Toxiproxy of the run's own: each node gets its Redis and store URLs
 * rewritten to a proxy of its own, and the clients reach each node through another. SQLite is a file: a node's store
 * link cannot be cut, and `has` says so.
 */
export class Routes {
  private readonly proxies = new Set<string>();

  constructor(readonly toxiproxy: Toxiproxy) {}

  /** For the launcher's nodeEnv: API node `index`'s Redis and (on MongoDB) store through proxies of its own. */
  async nodeEnv(index: number, shared: { redisUrl: string; storeUrl: string }): Promise<Record<string, string>> {
    const node = `api-${index + 1}`;
    const env = { REDIS_URL: await this.route(node, 'redis', shared.redisUrl) };
    if (!shared.storeUrl.startsWith('mongodb://')) return env;
    const store = new URL(await this.route(node, 'store', shared.storeUrl));
    // The proxy is the only address this node may use: without directConnection the driver would reach the members
    // the replica set names, around the proxy. A cut link answers 503 after 2 s, not the default 10 s.
    store.searchParams.delete('replicaSet');
    store.searchParams.set('directConnection', 'true');
    if (!store.searchParams.has('serverSelectionTimeoutMS')) store.searchParams.set('serverSelectionTimeoutMS', '2000');
    return { ...env, STORE_URL: store.toString() };
  }

  /** The clients' targets: every API node through its client link. */
  async clientTargets(cluster: Cluster): Promise<string[]> {
    return Promise.all(cluster.api.map(async (node) => `http://${await this.proxy(node.id, 'client', new URL(node.url).host)}`));
  }

  has(node: string, link: Link): boolean {
    return this.proxies.has(`${node}-${link}`);
  }

  /** Puts the toxics on those links of those nodes; the function returned takes them off again. */
  async cut(nodes: string[], links: Link[], toxics: Toxic[]): Promise<() => Promise<void>> {
    const added: [proxy: string, toxic: string][] = [];
    for (const node of nodes)
      for (const link of links)
        if (this.has(node, link))
          for (const toxic of toxics) added.push([`${node}-${link}`, await this.toxiproxy.add(`${node}-${link}`, toxic)]);
    return async () => {
      for (const [proxy, toxic] of added) await this.toxiproxy.remove(proxy, toxic);
    };
  }

  private async route(node: string, link: Link, url: string): Promise<string> {
    if (/^\w+:\/\/[^/]*,/.test(url)) throw new Error(`--nemesis partition: ${url} names several hosts; give it one`);
    const routed = new URL(url);
    routed.host = await this.proxy(node, link, routed.host);
    return routed.toString();
  }

  private async proxy(node: string, link: Link, upstream: string): Promise<string> {
    const name = `${node}-${link}`;
    this.proxies.add(name);
    return this.toxiproxy.proxy(name, upstream);
  }
}

/** Cut both ways: nothing passes, connections stay open (a silent partition). */
export const blackHole: Toxic[] = [
  { type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } },
  { type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } },
];
/** Every connection reset at once (a partition the kernel reports). */
export const refused: Toxic[] = [{ type: 'reset_peer', stream: 'upstream', attributes: { timeout: 0 } }];
/** Requests arrive and are applied; their answers are lost and the connection closed after 2 s. */
export const answersLost: Toxic[] = [{ type: 'timeout', stream: 'downstream', attributes: { timeout: 2000 } }];
/** A slow, narrow network: 150 ± 100 ms each way and 64 KB/s. */
export const degraded: Toxic[] = [
  { type: 'latency', stream: 'downstream', attributes: { latency: 150, jitter: 100 } },
  { type: 'latency', stream: 'upstream', attributes: { latency: 150, jitter: 100 } },
  { type: 'bandwidth', stream: 'downstream', attributes: { rate: 64 } },
];
