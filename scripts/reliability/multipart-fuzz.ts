import fc from 'fast-check';
import { startTestServer, type Reply } from '../../test/fixtures/server';
import { multipartFile, rawRequest, uploadRoutes, type UploadRoute } from '../../test/fixtures/uploads';
import { isErrorBody } from './fuzz';
import { hostileMultipart } from './hostile-multipart';

const SEED = 20261125;
/** Small, so oversized cases stay cheap; the limit's rules do not depend on its size. */
const BODY_LIMIT = 8192;

export interface MultipartFuzzResult {
  routes: number;
  cases: number;
  /** Cases the node stored (a generated body that happens to be a valid upload). */
  stored: number;
  /** Answers other than 201 (200 to a PUT) or a 4xx in the error format (5xx, a closed socket, another body). */
  bad: number;
  /** Batches after which /healthz did not answer 200. */
  deadAfter: number;
  /** Refused cases after which the object's documents had changed. */
  stateChanged: number;
  examples: string[];
}

/**
 * Generated truncated, garbled and oversized multipart bodies (fast-check, fixed seed) sent over node:http to
 * every document upload route of a live app on the store the tests use (MONGODB_URL or SQLite): each answers
 * 201 (200 to a PUT) or a 4xx in the error format, a refused one stores nothing, and /healthz answers after every batch.
 */
export async function runMultipartFuzz(casesPerRoute: number): Promise<MultipartFuzzResult> {
  const server = await startTestServer({ env: { BODY_LIMIT: String(BODY_LIMIT) } });
  try {
    // Every upload route twice: a new document (POST …/documents) and a new version of one (PUT …/documents/{id}).
    const targets: (UploadRoute & { method: 'POST' | 'PUT'; success: number })[] = [];
    for (const route of await uploadRoutes(server)) {
      const seed = multipartFile('seed');
      const seeded = await rawRequest(server.url, 'POST', `${route.path}?acc_token=${route.token}`, seed.body, {
        authorization: `Bearer ${route.key}`,
        'content-type': seed.contentType,
      });
      if (seeded.status !== 201) throw new Error(`seed document of ${route.kind}: ${seeded.status} ${seeded.text}`);
      targets.push({ ...route, method: 'POST', success: 201 });
      targets.push({ ...route, path: `${route.path}/${seeded.body.data.id}`, method: 'PUT', success: 200 });
    }
    const routes = targets;
    const result: MultipartFuzzResult = { routes: routes.length, cases: 0, stored: 0, bad: 0, deadAfter: 0, stateChanged: 0, examples: [] };
    const note = (problem: string, shape: string, reply: Reply) => {
      if (result.examples.length < 5) result.examples.push(`${problem}: ${shape} → ${reply.status} ${reply.text.slice(0, 200)}`);
    };
    // Every version counts: a PUT adds one under the same id.
    const documentCount = async (path: string) =>
      ((await server.request('GET', `${path.replace(/\/documents\/\w+$/, '/documents')}?all=1`)).body?.data ?? []).length as number;
    for (const [r, route] of routes.entries()) {
      let count = await documentCount(route.path);
      for (const c of fc.sample(hostileMultipart(BODY_LIMIT), { numRuns: casesPerRoute, seed: SEED + r })) {
        const reply = await rawRequest(server.url, route.method, `${route.path}?acc_token=${route.token}`, c.body, {
          authorization: `Bearer ${route.key}`,
          'content-type': c.contentType,
        });
        result.cases++;
        const after = await documentCount(route.path);
        if (reply.status === route.success) result.stored++;
        else if (reply.status < 400 || reply.status >= 500 || !isErrorBody(reply.body)) {
          result.bad++;
          note('bad answer', `${route.method} ${route.kind} ${c.shape}`, reply);
        } else if (after !== count) {
          result.stateChanged++;
          note('stored on refusal', `${route.method} ${route.kind} ${c.shape}`, reply);
        }
        count = after;
      }
      const health = await server.request('GET', '/healthz');
      if (health.status !== 200) {
        result.deadAfter++;
        note('not answering', `${route.kind} batch`, health);
      }
    }
    return result;
  } finally {
    await server.close();
  }
}
