/** `npm run openapi > openapi.json`: the document `GET /api/2.5/openapi.json` serves, without starting a node. */
import { loadConfig } from '../config';
import { domainRoutes } from '../domain/routers';
import { buildOpenApiDocument } from './openapi-document';
import { ROUTE_DESCRIPTIONS } from './route-descriptions';

const table = domainRoutes({ config: loadConfig(process.env), accounts: new Map() });
process.stdout.write(`${JSON.stringify(buildOpenApiDocument([...ROUTE_DESCRIPTIONS, ...table.map((r) => r.description)]), null, 2)}\n`);
