import Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import t from 'tap';
import { loadConfig } from '../../../src/config';
import type { RequestState } from '../../../src/http/context';
import { routerOf, type MountableRoute } from '../../../src/http/route';
import { koaHandler } from '../../../src/http/koa-handler';
import { routeTable } from '../../../src/route-table';

/** The app's table, each route answering which route it is, so two ways of routing can be compared by their answers. */
function answeringTable(): MountableRoute[] {
  const config = loadConfig({
    STORE_URL: 'sqlite::memory:',
    SESSION_SECRET: 'test-secret-test-secret',
    AUTH_FILE: `${__dirname}/../../../auth.ini`,
  });
  const { table } = routeTable({ config, accounts: new Map(), store: { ping: async () => undefined } });
  return table.map(({ description }) => ({
    description,
    run: async (ctx) => {
      ctx.body = { route: `${description.method} ${description.path}`, params: ctx.params };
    },
  }));
}

async function serve(use: (app: Koa<RequestState>) => void) {
  const app = new Koa<RequestState>();
  app.silent = true;
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      ctx.status = (err as { status?: number }).status ?? 500;
    }
  });
  use(app);
  const server = createServer(koaHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

t.test('routerOf answers every request as one router holding the whole table does', async (t) => {
  const table = answeringTable();
  const flat = new Router<RequestState>();
  for (const { description, run } of table) flat[description.method](description.path, run);
  const one = await serve((app) => {
    app.use(flat.routes());
    app.use(flat.allowedMethods({ throw: true }));
  });
  const routed = routerOf(table);
  const byKey = await serve((app) => {
    app.use(routed.routes());
    app.use(routed.allowedMethods({ throw: true }));
  });
  t.teardown(async () => {
    await one.close();
    await byKey.close();
  });

  // Each route's own path and method, with a trailing slash, in capitals, one segment longer, and with the methods
  // the table does not serve there (405 with Allow, or 404 where nothing matches).
  const requests = new Set<string>([
    'GET /',
    'GET /nowhere',
    'GET /api/2.5/',
    'GET /api/2.5/nowhere/x',
    'POST /api/2.5/tenders/x/nowhere/y',
  ]);
  for (const { description } of table) {
    const path = description.path.replace(/:(\w+)/g, (_, name: string) => `${name}-1`);
    const method = description.method.toUpperCase();
    for (const variant of [path, `${path}/`, path.toUpperCase(), `${path}/extra`]) requests.add(`${method} ${variant}`);
    for (const other of ['GET', 'PUT', 'DELETE', 'OPTIONS']) requests.add(`${other} ${path}`);
  }
  const answer = async (base: string, request: string) => {
    const [method, path] = request.split(' ');
    const res = await fetch(`${base}${path}`, { method });
    return { status: res.status, allow: res.headers.get('allow'), body: await res.text() };
  };
  const list = [...requests];
  for (let i = 0; i < list.length; i += 25) {
    await Promise.all(
      list.slice(i, i + 25).map(async (request) => {
        const [expected, got] = await Promise.all([answer(one.url, request), answer(byKey.url, request)]);
        if (JSON.stringify(got) !== JSON.stringify(expected)) t.same(got, expected, request);
      }),
    );
  }
  const compared = list.length;
  t.ok(compared > 5 * table.length, `${compared} requests answered alike`);
  t.equal(routed.routes().router.stack.length, table.length, 'the mounted router lists every route, as the instrumentation reads it');
});
