import { spawn, spawnSync } from 'node:child_process';
import { freePort } from '../../cluster/free-port';

/** A toxic of Shopify's Toxiproxy (https://github.com/Shopify/toxiproxy#toxics), on one direction of a link. */
export interface Toxic {
  type: 'timeout' | 'reset_peer' | 'latency' | 'bandwidth';
  /** upstream: what the link's client sends; downstream: what it is answered. */
  stream: 'upstream' | 'downstream';
  attributes: Record<string, number>;
}

export interface Toxiproxy {
  /** A proxy on a free loopback port forwarding to `upstream` (host:port); returns its host:port. */
  proxy(name: string, upstream: string): Promise<string>;
  /** Adds a toxic to a proxy; the name returned removes it. */
  add(proxy: string, toxic: Toxic): Promise<string>;
  remove(proxy: string, toxic: string): Promise<void>;
  stop(): Promise<void>;
}

/** The server binary: TOXIPROXY_SERVER, else `toxiproxy-server` on PATH; null when neither is there. */
export function toxiproxyServer(): string | null {
  const binary = process.env.TOXIPROXY_SERVER || 'toxiproxy-server';
  return spawnSync(binary, ['-version'], { stdio: 'ignore' }).error ? null : binary;
}

/** Starts a toxiproxy-server of the run's own on a free loopback port and waits until its API answers. */
export async function startToxiproxy(binary: string): Promise<Toxiproxy> {
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ['-host', '127.0.0.1', '-port', String(port)], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`toxiproxy ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  for (
    let tries = 0;
    !(await fetch(`${api}/version`).then(
      (res) => res.ok,
      () => false,
    ));
    tries++
  ) {
    if (tries > 100 || child.exitCode !== null) throw new Error(`${binary} did not answer on ${api}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let toxics = 0;
  return {
    async proxy(name, upstream) {
      return (await call('POST', '/proxies', { name, listen: '127.0.0.1:0', upstream, enabled: true })).listen;
    },
    async add(proxy, toxic) {
      const name = `${toxic.type}-${toxic.stream}-${++toxics}`;
      await call('POST', `/proxies/${proxy}/toxics`, { name, toxicity: 1, ...toxic });
      return name;
    },
    async remove(proxy, toxic) {
      await call('DELETE', `/proxies/${proxy}/toxics/${toxic}`);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
