/** `npm run openapi > openapi.json`: the document `GET /api/2.5/openapi.json` serves, without starting a node. */
import { buildOpenApiDocument } from './openapi-document';

process.stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
