import { Latencies } from './latency';

export interface Reply {
  status: number;
  body: any;
  /**
   * An earlier attempt of this request got no answer (its node died, or it timed out): the node may have applied it
   * before, so a write answered here may meet its own earlier attempt (a 409 for a PATCH, a second object for a POST).
   */
  afterUnansweredAttempt: boolean;
}

export interface ClientStats {
  preconditionFailed: number;
  unreachable: number;
  /** Writes answered after an attempt that got no answer: their first attempt may have been applied. */
  writesRepeated: number;
  /** Answers 500 and above other than the documented 503 (docs/cluster.md §Outcome unknown). */
  serverErrors: number;
  latencies: Latencies;
}

export const newClientStats = (): ClientStats => ({
  preconditionFailed: 0,
  unreachable: 0,
  writesRepeated: 0,
  serverErrors: 0,
  latencies: new Latencies(),
});

const MAX_ATTEMPTS = 8;

/**
 * One simulated client: its own SESSION cookie, every request to a random target (no stickiness). A 412
 * brings a new cookie and the request is repeated, as the spec asks; an unreachable target is replaced by
 * another one, and the reply says so (`afterUnansweredAttempt`).
 */
export class SessionClient {
  cookie: string | undefined;

  constructor(
    private readonly targets: () => string[],
    private readonly stats: ClientStats,
    private readonly key = 'broker',
  ) {}

  /** The node the current cookie names (read without the secret: the checker only looks). */
  cookieNode(): string | undefined {
    return this.cookie ? sessionNode(this.cookie) : undefined;
  }

  async request(method: string, path: string, body?: unknown): Promise<Reply> {
    const started = performance.now();
    let lastError: unknown;
    let unanswered = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const targets = this.targets();
      const target = targets[Math.floor(Math.random() * targets.length)];
      let res: Response;
      try {
        res = await fetch(`${target}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(this.cookie ? { cookie: `SESSION=${this.cookie}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (err) {
        lastError = err;
        if (!neverSent(err)) unanswered = true;
        this.stats.unreachable++;
        await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
        continue;
      }
      const set = /SESSION=([^;]+)/.exec(res.headers.get('set-cookie') ?? '');
      if (set) this.cookie = set[1];
      const text = await res.text();
      if (res.status >= 500 && res.status !== 503) this.stats.serverErrors++;
      if (res.status === 412) {
        this.stats.preconditionFailed++;
        continue;
      }
      this.stats.latencies.add(performance.now() - started);
      if (unanswered && method !== 'GET') this.stats.writesRepeated++;
      return { status: res.status, body: text ? JSON.parse(text) : undefined, afterUnansweredAttempt: unanswered };
    }
    throw new Error(`${method} ${path}: no answer after ${MAX_ATTEMPTS} attempts (${String(lastError)})`);
  }
}

/** A refused connection: the request never reached a node, so it was not applied. */
const neverSent = (err: unknown) => (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';

/** The `n` claim of a SESSION JWT. */
export function sessionNode(cookie: string): string | undefined {
  try {
    return JSON.parse(Buffer.from(cookie.split('.')[1], 'base64url').toString()).n;
  } catch {
    return undefined;
  }
}
