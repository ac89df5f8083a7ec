/** `npm run openapi > openapi.json`: the document `GET /api/2.5/openapi.json` serves, without starting a node. */
import { loadConfig } from '../src/config';
import { routeTable } from '../src/route-table';
import { buildOpenApiDocument } from '../src/openapi/openapi-document';
import { parseCli } from './cli';

parseCli(
  `usage: npm run openapi [> openapi.json]

Prints the OpenAPI 3.1 document of every route, as GET /api/2.5/openapi.json serves it, without starting a node.

  -h, --help        this text`,
  {},
);
const { described } = routeTable({ config: loadConfig(process.env), accounts: new Map(), store: { ping: async () => {} } });
process.stdout.write(`${JSON.stringify(buildOpenApiDocument(described()), null, 2)}\n`);
