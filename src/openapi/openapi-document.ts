import Joi from 'joi';
import parse from 'joi-to-json';
import type { BodyVariant, ConfigTable, ResultShape, RouteDescription } from '../http/route';

type JsonSchema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** The wire formats every route shares: the reference's error body, object envelopes and feed pages. */
const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['status', 'errors'],
    properties: {
      status: { const: 'error' },
      errors: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['location', 'name', 'description'],
          properties: {
            location: { type: 'string', description: 'body, url, querystring, header' },
            name: { type: 'string' },
            description: { description: 'a text, a list of texts, or an object mirroring the failing structure' },
          },
        },
      },
    },
  },
  Envelope: {
    type: 'object',
    required: ['data'],
    properties: {
      data: { type: 'object' },
      config: { type: 'object' },
      access: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
    },
  },
  List: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object' } } } },
  PageLink: {
    type: 'object',
    required: ['offset', 'path', 'uri'],
    properties: { offset: { type: ['number', 'string'] }, path: { type: 'string' }, uri: { type: 'string' } },
  },
  ReleasePackage: {
    type: 'object',
    required: ['uri', 'version', 'publisher', 'publishedDate', 'releases'],
    properties: {
      uri: { type: 'string' },
      version: { type: 'string' },
      publisher: { type: 'object' },
      publishedDate: { type: 'string' },
      releases: { type: 'array', items: { type: 'object', required: ['ocid', 'id', 'date', 'tag', 'initiationType'] } },
      next_page: ref('PageLink'),
      prev_page: ref('PageLink'),
    },
  },
  RecordPackage: {
    type: 'object',
    required: ['uri', 'version', 'publisher', 'publishedDate', 'records'],
    properties: { records: { type: 'array', items: { type: 'object', required: ['ocid', 'releases'] } } },
  },
  FeedPage: {
    type: 'object',
    required: ['data', 'next_page'],
    properties: {
      data: {
        type: 'array',
        items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, dateModified: { type: 'string' } } },
      },
      next_page: ref('PageLink'),
      prev_page: ref('PageLink'),
    },
  },
};

const OCDS_PARAMETER = {
  name: 'opt_schema',
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description:
    'any value containing "ocds" (any case) answers an OCDS 1.1 release package, "ocds-record" (objects) a record package; other values are ignored',
};

const FEED_PARAMETERS = [
  {
    name: 'offset',
    schema: { type: 'string' },
    description:
      'next_page.offset of the previous page (UNIX seconds: a 10 ms tick bound or a position; 12 significant digits keep it), an ISO 8601 date-time, or the reference form <seconds>.<n>.<md5>; invalid → 404',
  },
  { name: 'limit', schema: { type: 'integer' }, description: 'entries per page (1-1000, default 100)' },
  { name: 'descending', schema: { type: 'string' }, description: 'any value lists newest first' },
  { name: 'mode', schema: { type: 'string', enum: ['test', '_all_'] }, description: 'test objects only, or all' },
  { name: 'opt_fields', schema: { type: 'string' }, description: 'comma-separated fields to add to id and dateModified' },
].map((p) => ({ ...p, in: 'query', required: false }));

/** The live feed's resume point (docs/platform.md §Live feed). */
const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'with Accept: text/event-stream, the id of the last event received: the stream resumes after it (an offset in any form)',
};

/** A feed asked with `Accept: text/event-stream` (docs/platform.md §Live feed). */
const LIVE_FEED = {
  'text/event-stream': {
    schema: {
      type: 'string',
      description:
        'the live feed: one event per entry the page would list (id: its offset, data: its JSON), after offset or Last-Event-ID, then each change as it is listed; comment lines keep it alive; descending and opt_schema → 400',
    },
  },
};

const ACCESS_TOKEN = {
  name: 'acc_token',
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description: 'the owner token (or X-Access-Token, or access.token in the body)',
};

/** A procedure's config table as JSON Schema: the same allowed values `validateTenderConfig` enforces. */
function configTableSchema(spec: ConfigTable): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(spec).map(([key, rule]) => [
      key,
      rule.type === 'boolean' ? { type: 'boolean', enum: rule.allowed } : { type: 'integer', minimum: rule.minimum, maximum: rule.maximum },
    ]),
  );
  return { type: 'object', properties };
}

/**
 * What joi-to-json cannot name: the `float` type (src/domain/core/float.ts) takes a number, or a string or boolean
 * it converts as the reference does (docs/platform.md §Amounts sent as strings); left as is it reads `type: "float"`,
 * which no OpenAPI tool accepts.
 */
function withJsonTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withJsonTypes);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withJsonTypes(value)]));
  if (out.type === 'float') out.type = ['number', 'string', 'boolean'];
  return out;
}

const fromJoi = (schema: Joi.Schema): JsonSchema => withJsonTypes(parse(schema, 'open-api-3.1')) as JsonSchema;

function variantSchema(variant: BodyVariant): JsonSchema {
  const properties: JsonSchema = { data: fromJoi(variant.data) };
  if (variant.config) properties.config = Joi.isSchema(variant.config) ? fromJoi(variant.config) : configTableSchema(variant.config);
  return { type: 'object', required: ['data'], properties };
}

function requestBody(body: RouteDescription['body']) {
  if (!body) return undefined;
  const file = {
    'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } },
  };
  if (body === 'file') return { required: true, content: file };
  if (body === 'document') {
    // The JSON form names the document service's signed url (docs/platform.md §Document service).
    const signed = {
      type: 'object',
      required: ['title', 'url', 'hash', 'format'],
      properties: { url: { type: 'string' }, hash: { type: 'string' } },
    };
    return { required: true, content: { ...file, ...json({ type: 'object', required: ['data'], properties: { data: signed } }) } };
  }
  if (body === 'any-data') {
    return { required: true, content: json({ type: 'object', required: ['data'], properties: { data: { type: 'object' } } }) };
  }
  const schemas = body.map(variantSchema);
  return { required: true, content: json(schemas.length === 1 ? schemas[0] : { anyOf: schemas }) };
}

const SUCCESS: Record<ResultShape, { status: string; description: string; content?: Record<string, unknown> }> = {
  object: { status: '200', description: 'the object', content: json(ref('Envelope')) },
  created: { status: '201', description: 'created; Location names it', content: json(ref('Envelope')) },
  feed: {
    status: '200',
    description: 'one page of the feed; with Accept: text/event-stream the live feed',
    content: { ...json(ref('FeedPage')), ...LIVE_FEED },
  },
  list: { status: '200', description: 'the list', content: json(ref('List')) },
  objectOrOcds: {
    status: '200',
    description: 'the object; with opt_schema=ocds an OCDS release package, with ocds-record a record package',
    content: json({ anyOf: [ref('Envelope'), ref('ReleasePackage'), ref('RecordPackage')] }),
  },
  feedOrOcds: {
    status: '200',
    description:
      "one page of the feed; with opt_schema=ocds a release package of the page's entries, with the same links; with Accept: text/event-stream the live feed",
    content: { ...json({ anyOf: [ref('FeedPage'), ref('ReleasePackage')] }), ...LIVE_FEED },
  },
  status: { status: '200', description: 'ok', content: json({ type: 'object', properties: { status: { type: 'string' } } }) },
  metrics: { status: '200', description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } },
  document: {
    status: '200',
    description: 'the document, or its bytes with `download`',
    content: { ...json(ref('Envelope')), '*/*': { schema: {} } },
  },
  description: { status: '200', description: 'the description', content: json({ type: 'object' }) },
  refused: { status: '405', description: "the reference's own refusal of this method here", content: json(ref('Error')) },
  retired: {
    status: '403',
    description: 'always refused, as the reference refuses it for every tender made after NEW_CONTRACTING_FROM',
    content: json(ref('Error')),
  },
};

const ERROR_TEXTS: Record<string, string> = {
  '400': 'a malformed query parameter (limit)',
  '403': 'no key, a key without the right, or a wrong owner token',
  '404': 'unknown object (or an invalid feed offset)',
  '409': 'Conflict while updating document. Please, retry',
  '412': 'the SESSION cookie names a node that is gone: repeat with the new cookie',
  '413': 'body over BODY_LIMIT',
  '415': 'not application/json',
  '422': 'the body breaks the schema or a rule',
  '429': 'too many open live feed streams for this key (or address without one)',
};

const isFeed = (route: RouteDescription) => route.result === 'feed' || route.result === 'feedOrOcds';

function errorStatuses(route: RouteDescription): string[] {
  const statuses = ['412'];
  if (route.path.includes(':') || isFeed(route)) statuses.push('404');
  if (isFeed(route)) statuses.push('400', '429');
  if (route.access !== 'public') statuses.push('403');
  if (route.writes) statuses.push('409');
  if (route.body) statuses.push('413', '415', '422');
  return statuses.sort();
}

function responses(route: RouteDescription) {
  const success = SUCCESS[route.result];
  const out: Record<string, unknown> = {
    [success.status]:
      route.method === 'head' ? { description: success.description } : { description: success.description, content: success.content },
  };
  for (const status of errorStatuses(route)) out[status] ??= { description: ERROR_TEXTS[status], content: json(ref('Error')) };
  if (route.path === '/readyz') {
    out['503'] = { description: 'a dependency is unreachable', content: json({ type: 'object', required: ['status', 'problems'] }) };
  }
  out.default = { description: 'any other error, in the same format', content: json(ref('Error')) };
  return out;
}

/** `/api/2.5/frameworks/:id` → `/api/2.5/frameworks/{id}`. */
export const openApiPath = (routerPath: string) => routerPath.replace(/:(\w+)/g, '{$1}');

function operation(route: RouteDescription) {
  const pathParameters = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = [
    ...(isFeed(route) ? [...FEED_PARAMETERS, LAST_EVENT_ID] : []),
    ...(route.result === 'objectOrOcds' || route.result === 'feedOrOcds' ? [OCDS_PARAMETER] : []),
    ...(route.access === 'owner' ? [ACCESS_TOKEN] : []),
    ...(route.query ?? []).map((q) => ({ ...q, in: 'query', required: false, schema: { type: 'string' } })),
    ...(route.headers ?? []).map((h) => ({ ...h, in: 'header', required: false, schema: { type: 'string' } })),
  ];
  return {
    operationId: `${route.method}${openApiPath(route.path).replace(/[^\w]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: route.summary,
    tags: [route.tag ?? 'operations'],
    ...(route.access === 'public' ? {} : { security: [{ bearer: [] }, { basic: [] }] }),
    parameters: [...pathParameters, ...query],
    ...(route.body ? { requestBody: requestBody(route.body) } : {}),
    responses: responses(route),
  };
}

/** The OpenAPI 3.1 document of the whole app, built from the route table and the routes' own joi schemas. */
export function buildOpenApiDocument(routes: readonly RouteDescription[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Procurement Registry API',
      version: '2.5',
      description:
        'Errors are always {"status": "error", "errors": [{location, name, description}]}. Every response sets SESSION=…; Path=/.',
    },
    tags: [...new Set(routes.map((r) => r.tag ?? 'operations'))].map((name) => ({ name })),
    paths,
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'the API key' },
        basic: { type: 'http', scheme: 'basic', description: 'the API key as user name, any password' },
      },
    },
  };
}
