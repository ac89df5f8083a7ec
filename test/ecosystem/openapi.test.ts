import t from 'tap';
import type Koa from 'koa';
import type Router from '@koa/router';
import parse from 'joi-to-json';
import pino from 'pino';
import { createApp } from '../../src/app';
import { createFrameworkSchema } from '../../src/domain/framework/framework.schema';
import { patchQualificationSchema } from '../../src/domain/qualification/qualification.schema';
import { TENDER_PROCEDURES } from '../../src/domain/tender/procedures';
import { soloMembership } from '../../src/membership/membership';
import { openApiPath } from '../../src/openapi/openapi-document';
import { ManualClock } from '../../src/time/clock';
import { startTestServer } from '../fixtures/server';

type Operation = Record<string, any>;

/** `METHOD path` of every layer of every router the app mounts (HEAD only where a route declares it alone). */
function routerTable(app: Koa): Set<string> {
  const routers = app.middleware.map((m) => (m as { router?: Router }).router).filter((r): r is Router => !!r);
  const entries = new Set<string>();
  for (const layer of routers.flatMap((r) => r.stack)) {
    for (const method of layer.methods) {
      if (method === 'HEAD' && layer.methods.includes('GET')) continue;
      entries.add(`${method} ${openApiPath(String(layer.path))}`);
    }
  }
  return entries;
}

function documentTable(document: { paths: Record<string, Record<string, Operation>> }): Set<string> {
  const entries = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) entries.add(`${method.toUpperCase()} ${path}`);
  }
  return entries;
}

t.test('GET /api/2.5/openapi.json → an OpenAPI 3.1 document that the validator accepts', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const reply = await server.request('GET', '/api/2.5/openapi.json');
  t.equal(reply.status, 200);
  t.equal(reply.body.openapi, '3.1.0');
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const result = await new Validator().validate(reply.body);
  t.same(result.errors ?? [], [], 'no validation errors');
  t.equal(result.valid, true);
  // The validator lets any string through as a `type`; schemathesis and client generators do not.
  const types = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type') for (const type of [value].flat()) if (typeof type === 'string') types.add(type);
      collect(value);
    }
  };
  collect(reply.body.paths);
  const JSON_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];
  t.same(
    [...types].filter((type) => !JSON_TYPES.includes(type)),
    [],
    'every `type` is a JSON Schema type',
  );
});

t.test('every route of the app is in the document, and the document names no route the app lacks', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const document = (await server.request('GET', '/api/2.5/openapi.json')).body;
  const app = createApp({
    config: server.config,
    store: server.store,
    membership: soloMembership(server.config.nodeId),
    accounts: new Map(),
    clock: new ManualClock(new Date()),
    logger: pino({ level: 'silent' }),
  });
  const routes = routerTable(app);
  const documented = documentTable(document);
  t.ok(routes.size > 30, `the router table was read (${routes.size} routes)`);
  t.same([...routes].filter((r) => !documented.has(r)).sort(), [], 'routes missing from the document');
  t.same([...documented].filter((r) => !routes.has(r)).sort(), [], 'documented routes the app does not serve');
  t.ok(document.paths['/api/2.5/spore'].head, 'the reference client’s HEAD /spore is documented');
});

t.test('request bodies are the routes’ own joi schemas converted, not copies', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { paths } = (await server.request('GET', '/api/2.5/openapi.json')).body;
  const bodyOf = (path: string, method: string) => paths[path][method].requestBody.content['application/json'].schema;
  t.same(bodyOf('/api/2.5/frameworks', 'post').properties.data, parse(createFrameworkSchema, 'open-api-3.1'));
  t.same(bodyOf('/api/2.5/qualifications/{id}', 'patch').properties.data, parse(patchQualificationSchema, 'open-api-3.1'));
  const tenderBody = bodyOf('/api/2.5/tenders', 'post');
  const types = Object.keys(TENDER_PROCEDURES);
  t.equal(tenderBody.anyOf.length, types.length, 'one variant per tender procedure');
  t.same(tenderBody.anyOf[types.indexOf('competitiveOrdering')].properties.config.properties.hasPreSelectionAgreement, {
    type: 'boolean',
    enum: [true],
  });
});

t.test('responses carry the error format and the statuses each route can answer', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const { paths, components } = (await server.request('GET', '/api/2.5/openapi.json')).body;
  const statuses = (path: string, method: string) => Object.keys(paths[path][method].responses).sort();
  t.same(statuses('/api/2.5/frameworks', 'post'), ['201', '403', '409', '412', '413', '415', '422', 'default']);
  t.same(statuses('/api/2.5/frameworks/{id}', 'patch'), ['200', '403', '404', '409', '412', '413', '415', '422', 'default']);
  t.same(statuses('/api/2.5/tenders', 'get'), ['200', '400', '404', '412', '429', 'default']);
  t.same(
    paths['/api/2.5/tenders']['get'].parameters.map((p: { name: string }) => p.name),
    ['offset', 'limit', 'descending', 'mode', 'opt_fields', 'Last-Event-ID', 'opt_schema'],
  );
  t.same(
    Object.keys(paths['/api/2.5/submissions']['get'].responses['200'].content),
    ['application/json', 'text/event-stream'],
    'every feed is also a live feed (docs/platform.md §Live feed)',
  );
  t.same(
    paths['/api/2.5/tenders/{id}']['get'].parameters.map((p: { name: string }) => p.name),
    ['id', 'opt_schema'],
    'tenders, contracts and plans answer OCDS (docs/ocds.md §Asking for OCDS)',
  );
  t.same(
    paths['/api/2.5/frameworks/{id}']['get'].parameters.map((p: { name: string }) => p.name),
    ['id'],
  );
  t.same(
    paths['/api/2.5/tenders/{id}']['patch'].parameters.map((p: { name: string }) => p.name),
    ['id', 'acc_token'],
  );
  t.same(components.schemas.Error.required, ['status', 'errors']);
  t.equal(paths['/api/2.5/frameworks']['post'].responses['422'].content['application/json'].schema.$ref, '#/components/schemas/Error');
});
