import fc from 'fast-check';
import { startTestServer, type Reply } from '../../test/fixtures/server';
import { rawRequest, uploadRoutes } from '../../test/fixtures/uploads';
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
  /** Answers other than 201 or a 4xx in the error format (5xx, a closed socket, another body). */
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
 * 201 or a 4xx in the error format, a refused one stores nothing, and /healthz answers after every batch.
 */
export async function runMultipartFuzz(casesPerRoute: number): Promise<MultipartFuzzResult> {
  const server = await startTestServer({ env: { BODY_LIMIT: String(BODY_LIMIT) } });
  try {
    const routes = await uploadRoutes(server);
    const result: MultipartFuzzResult = { routes: routes.length, cases: 0, stored: 0, bad: 0, deadAfter: 0, stateChanged: 0, examples: [] };
    const note = (problem: string, shape: string, reply: Reply) => {
      if (result.examples.length < 5) result.examples.push(`${problem}: ${shape} → ${reply.status} ${reply.text.slice(0, 200)}`);
    };
    const documentCount = async (path: string) => ((await server.request('GET', path)).body?.data ?? []).length as number;
    for (const [r, route] of routes.entries()) {
      let count = await documentCount(route.path);
      for (const c of fc.sample(hostileMultipart(BODY_LIMIT), { numRuns: casesPerRoute, seed: SEED + r })) {
        const reply = await rawRequest(server.url, 'POST', `${route.path}?acc_token=${route.token}`, c.body, {
          authorization: `Bearer ${route.key}`,
          'content-type': c.contentType,
        });
        result.cases++;
        const after = await documentCount(route.path);
        if (reply.status === 201) result.stored++;
        else if (reply.status < 400 || reply.status >= 500 || !isErrorBody(reply.body)) {
          result.bad++;
          note('bad answer', `${route.kind} ${c.shape}`, reply);
        } else if (after !== count) {
          result.stateChanged++;
          note('stored on refusal', `${route.kind} ${c.shape}`, reply);
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
