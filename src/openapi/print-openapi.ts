/** `npm run openapi > openapi.json`: the document `GET /api/2.5/openapi.json` serves, without starting a node. */
import { loadConfig } from '../config';
import { routeTable } from '../route-table';
import { buildOpenApiDocument } from './openapi-document';

const { described } = routeTable({ config: loadConfig(process.env), accounts: new Map(), store: { ping: async () => {} } });
process.stdout.write(`${JSON.stringify(buildOpenApiDocument(described()), null, 2)}\n`);
