import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Cluster } from '../../cluster/launcher';
import { blackHole, refused, Routes } from '../../scripts/consistency/partition';
import { startToxiproxy, toxiproxyServer, type Toxic, type Toxiproxy } from '../../scripts/consistency/toxiproxy';

/**
 * The partition nemesis's plumbing (docs/cluster.md §Nemeses): which URLs a node is given, which links a cut touches,
 * and, where toxiproxy-server is installed, that a cut link refuses and a healed one serves again.
 */

/** Records what the nemesis asks of Toxiproxy; each proxy listens on the next made-up port. */
function recordingToxiproxy() {
  const proxies: [string, string][] = [];
  const toxics = new Map<string, Toxic>();
  let port = 40000;
  const toxiproxy: Toxiproxy = {
    async proxy(name, upstream) {
      proxies.push([name, upstream]);
      return `127.0.0.1:${++port}`;
    },
    async add(proxy, toxic) {
      const name = `${proxy}/${toxics.size}`;
      toxics.set(name, toxic);
      return name;
    },
    async remove(_proxy, toxic) {
      toxics.delete(toxic);
    },
    async stop() {},
  };
  return { toxiproxy, proxies, toxics };
}

t.test("a node's Redis and MongoDB store go through proxies of its own, the store's URL naming the proxy alone", async (t) => {
  const { toxiproxy, proxies } = recordingToxiproxy();
  const routes = new Routes(toxiproxy);
  const env = await routes.nodeEnv(1, {
    redisUrl: 'redis://127.0.0.1:6400',
    storeUrl: 'mongodb://127.0.0.1:27117/nemesis?replicaSet=secantus',
  });
  t.same(proxies, [
    ['api-2-redis', '127.0.0.1:6400'],
    ['api-2-store', '127.0.0.1:27117'],
  ]);
  t.equal(env.REDIS_URL, 'redis://127.0.0.1:40001');
  const store = new URL(env.STORE_URL);
  t.equal(store.host, '127.0.0.1:40002');
  t.equal(store.pathname, '/nemesis');
  t.equal(store.searchParams.get('replicaSet'), null, 'no replica set: the driver would go around the proxy to its members');
  t.equal(store.searchParams.get('directConnection'), 'true');
  t.equal(store.searchParams.get('serverSelectionTimeoutMS'), '2000');
  await t.rejects(routes.nodeEnv(0, { redisUrl: 'redis://127.0.0.1:6400', storeUrl: 'mongodb://h1:1,h2:2/db' }), /several hosts/);
});

t.test('SQLite is a file: no store link to cut, and a cut of it touches nothing', async (t) => {
  const { toxiproxy, proxies, toxics } = recordingToxiproxy();
  const routes = new Routes(toxiproxy);
  const env = await routes.nodeEnv(0, { redisUrl: 'redis://127.0.0.1:6400', storeUrl: 'sqlite:data/x.db' });
  t.same(Object.keys(env), ['REDIS_URL']);
  t.same(
    proxies.map(([name]) => name),
    ['api-1-redis'],
  );
  t.notOk(routes.has('api-1', 'store'));
  const heal = await routes.cut(['api-1'], ['redis', 'store'], blackHole);
  t.same([...toxics.values()], blackHole, 'both directions of the Redis link only');
  await heal();
  t.equal(toxics.size, 0, 'healed: every toxic removed');
});

const binary = toxiproxyServer();
t.test(
  'through a real toxiproxy-server: a reset link refuses, the healed link serves again',
  { skip: !binary && 'toxiproxy-server not installed' },
  async (t) => {
    const server = createServer((_req, res) => res.end('served'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const toxiproxy = await startToxiproxy(binary!);
    t.teardown(() => toxiproxy.stop());
    const routes = new Routes(toxiproxy);
    const node = { id: 'api-1', role: 'api', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, running: true } as const;
    const [target] = await routes.clientTargets({ api: [node] } as unknown as Cluster);
    const get = () =>
      fetch(`${target}/`, { signal: AbortSignal.timeout(2000) }).then(
        (res) => res.text(),
        (err: Error) => `failed: ${err.message}`,
      );
    t.equal(await get(), 'served', 'through the proxy');
    const heal = await routes.cut(['api-1'], ['client'], refused);
    t.match(await get(), /^failed/, 'reset while cut');
    await heal();
    t.equal(await get(), 'served', 'served after the heal');
  },
);
