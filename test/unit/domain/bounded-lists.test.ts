import t from 'tap';
import { loadConfig } from '../../../src/config';
import { routeTable } from '../../../src/route-table';

/** Every route the app serves and documents, as OpenAPI describes it. */
const described = routeTable({ config: loadConfig({}), accounts: new Map(), store: { ping: async () => {} } }).described();

/**
 * Every list a request body may carry has an upper bound that is checked before its elements
 * (docs/platform.md §Limits): the class of the 50,000-`{}` stack overflow. A schema that uses a bare
 * `Joi.array()` instead of `list()` fails here, whichever route it is on.
 */
interface Described {
  type?: string;
  rules?: { name: string }[];
  keys?: Record<string, Described>;
  items?: Described[];
  matches?: { schema?: Described; then?: Described; otherwise?: Described }[];
  whens?: { then?: Described; otherwise?: Described }[];
  alternatives?: Described[];
}

function unboundedLists(d: Described | undefined, path: string, out: Set<string>): void {
  if (!d || typeof d !== 'object') return;
  if (d.type === 'array' && !(d.rules ?? []).some((r) => r.name === 'max' || r.name === 'length')) out.add(path);
  for (const [key, child] of Object.entries(d.keys ?? {})) unboundedLists(child, `${path}.${key}`, out);
  for (const item of d.items ?? []) unboundedLists(item, `${path}[*]`, out);
  for (const m of d.matches ?? []) for (const s of [m.schema, m.then, m.otherwise]) unboundedLists(s, path, out);
  for (const w of d.whens ?? []) for (const s of [w.then, w.otherwise]) unboundedLists(s, path, out);
}

t.test('every list of every documented request body has an upper bound', async (t) => {
  let schemas = 0;
  const unbounded = new Set<string>();
  for (const route of described) {
    if (!Array.isArray(route.body)) continue;
    for (const variant of route.body) {
      schemas++;
      unboundedLists(variant.data.describe(), `${route.method.toUpperCase()} ${route.path} data`, unbounded);
    }
  }
  t.ok(schemas > 20, `${schemas} request schemas checked`);
  t.same([...unbounded], [], 'lists without a bound');
});
