import { aFramework, formatStamp, parseStamp, type Stamp } from './framework-body';
import { newClientStats, SessionClient, type ClientStats } from './session-client';
import { History, type Outcome } from './history';
import { SessionKnowledge } from './session-knowledge';
import { Violations, type Guarantee } from './violations';

export const OPERATIONS = ['create', 'patch', 'readOwn', 'readOther', 'feed', 'failed'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** What all simulated clients share: the objects to read, the acknowledged writes, the tallies. */
export interface Shared {
  /** Active objects any client may read, with their owner. */
  published: { id: string; owner: number }[];
  /** The highest acknowledged version of every object: none of them may be lost. */
  acknowledged: Map<string, number>;
  violations: Violations;
  operations: Record<Operation, number>;
  stats: ClientStats;
  /** Every create, write and read in Elle's list-append model, for the independent checker. */
  history: History;
}

/** What a new run's clients start from: nothing published, acknowledged or counted. */
export const newShared = (): Shared => ({
  published: [],
  acknowledged: new Map(),
  violations: new Violations(),
  operations: Object.fromEntries(OPERATIONS.map((o) => [o, 0])) as Record<Operation, number>,
  stats: newClientStats(),
  history: new History(),
});

interface Owned {
  token: string;
  nextVersion: number;
  /** The last write got no answer: it may or may not have happened. */
  uncertain: boolean;
  /** The versions of every write not known to have failed, in order: the list the next write carries. */
  list: number[];
}

const OWN_OBJECTS = 3;
const API = '/api/2.5';

/**
 * One client session: creates and activates a few frameworks, patches them with increasing versions, reads
 * them, other clients' frameworks and the feed back, and checks every answer against what the session has
 * already seen (docs/architecture.md §Sessions and causal tokens; spec "Session consistency").
 */
export class SimulatedClient {
  readonly http: SessionClient;
  private readonly knowledge = new SessionKnowledge();
  private readonly owned = new Map<string, Owned>();
  /** The last version of another client's object this session read, carried into its next write. */
  private lastRead: { id: string; version: number } | undefined;

  constructor(
    readonly index: number,
    targets: () => string[],
    private readonly shared: Shared,
  ) {
    this.http = new SessionClient(targets, shared.stats);
  }

  /** One of this client's objects with an acknowledged write, for probes that must see it. */
  acknowledgedObject(): { id: string; version: number } | undefined {
    for (const id of this.owned.keys()) {
      const version = this.knowledge.lastWrite(id);
      if (version >= 1) return { id, version };
    }
    return undefined;
  }

  /** Runs operations until `until(operationsDone)` says stop. */
  async run(until: (operationsDone: number) => boolean): Promise<void> {
    for (let done = 0; !until(done); done++) {
      const op = this.pick();
      try {
        await this[op]();
        this.shared.operations[op]++;
      } catch {
        this.shared.operations.failed++;
      }
    }
  }

  private pick(): Exclude<Operation, 'failed'> {
    if (this.owned.size < OWN_OBJECTS && Math.random() < 0.5) return 'create';
    if (!this.owned.size) return 'create';
    const r = Math.random();
    if (r < 0.35) return 'patch';
    if (r < 0.6) return 'readOwn';
    if (r < 0.8 && this.shared.published.length) return 'readOther';
    return 'feed';
  }

  private violation(guarantee: Guarantee, detail: string) {
    this.shared.violations.add({ guarantee, client: this.index, detail });
  }

  async create(): Promise<void> {
    const done = this.shared.history.begin(this.index);
    const data = { ...aFramework(`checker client ${this.index}`), description: formatStamp({ version: 0, list: [0] }) };
    const created = await this.http.request('POST', `${API}/frameworks`, { data });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    const { id, dateModified } = created.body.data;
    // A create that fails has no key to record: nobody can read what it may have made.
    done('ok', [['append', id, 0]]);
    this.owned.set(id, { token: created.body.access.token, nextVersion: 1, uncertain: false, list: [0] });
    this.knowledge.wrote(id, 0, Date.parse(dateModified));
    this.shared.acknowledged.set(id, 0);
    if (await this.write(id, { status: 'active' })) this.shared.published.push({ id, owner: this.index });
  }

  async patch(): Promise<void> {
    await this.write(this.randomOwned(), {});
  }

  async readOwn(): Promise<void> {
    await this.read(this.randomOwned());
  }

  async readOther(): Promise<void> {
    const { id, owner } = this.shared.published[Math.floor(Math.random() * this.shared.published.length)];
    const version = await this.read(id);
    if (version !== null && owner !== this.index) this.lastRead = { id, version };
  }

  async feed(): Promise<void> {
    const reply = await this.http.request('GET', `${API}/frameworks?descending=1&limit=100`);
    if (reply.status !== 200) throw new Error(`feed: ${reply.status}`);
    for (const entry of reply.body.data as { id: string; dateModified: string }[]) {
      if (this.knowledge.feedRegression(entry.id, Date.parse(entry.dateModified))) {
        this.violation('monotonic-reads', `feed lists ${entry.id} with dateModified ${entry.dateModified}, older than already seen`);
      }
    }
  }

  /** Writes the next version of an owned object (plus `extra`); true when acknowledged. */
  private async write(id: string, extra: Record<string, unknown>): Promise<boolean> {
    const own = this.owned.get(id)!;
    const version = own.nextVersion++;
    // This session is the object's only writer, so writing the list whole is an append of one element to it.
    const stamp: Stamp = { version, ...(this.lastRead ? { after: this.lastRead } : {}), list: [...own.list, version] };
    const previous = this.knowledge.lastWrite(id);
    const done = this.shared.history.begin(this.index);
    const ended = (outcome: Outcome) => {
      done(outcome, [['append', id, version]]);
      if (outcome !== 'fail') own.list.push(version);
    };
    let reply;
    try {
      reply = await this.http.request('PATCH', `${API}/frameworks/${id}?acc_token=${own.token}`, {
        data: { ...extra, description: formatStamp(stamp) },
      });
    } catch (err) {
      own.uncertain = true;
      ended('info');
      throw err;
    }
    // A write whose earlier attempt got no answer may have been applied by it: the conflict is then with itself.
    const wasUncertain = own.uncertain || reply.afterUnansweredAttempt;
    own.uncertain = false;
    if (reply.status === 409 && !wasUncertain) {
      // This session is the object's only writer: a conflict means the write was applied to an older state.
      this.violation('monotonic-writes', `PATCH v${stamp.version} of ${id} got 409 after v${previous} was acknowledged`);
      ended('fail');
      return false;
    }
    if (reply.status === 404) {
      this.violation('monotonic-writes', `PATCH v${stamp.version} of ${id}: 404 after v${previous} was acknowledged`);
      ended('fail');
      return false;
    }
    // A 503 says whether the write was made (docs/cluster.md §Outcome unknown): "Service Unavailable" alone means it
    // was not, so a 409 after it is a violation; a node that could not learn the outcome, or a request past
    // REQUEST_TIMEOUT_MS (whose handler goes on), says otherwise, and the write may have landed.
    if (reply.status === 503 && !knownNotWritten(reply.body)) own.uncertain = true;
    if (reply.status !== 200) {
      // Elle's outcomes: a conflict with an earlier attempt or a 5xx other than a plain 503 may have written it.
      const maybe = reply.status === 409 || (reply.status >= 500 && !(reply.status === 503 && knownNotWritten(reply.body)));
      ended(maybe ? 'info' : 'fail');
      throw new Error(`patch: ${reply.status}`);
    }
    ended('ok');
    const written = parseStamp(reply.body.data.description).version;
    const dateModified = Date.parse(reply.body.data.dateModified);
    if (written !== stamp.version || this.knowledge.feedRegression(id, dateModified)) {
      this.violation('monotonic-writes', `PATCH v${stamp.version} of ${id} answered v${written} at ${reply.body.data.dateModified}`);
    }
    this.lastRead = undefined;
    this.knowledge.wrote(id, stamp.version, dateModified);
    this.shared.acknowledged.set(id, Math.max(this.shared.acknowledged.get(id) ?? 0, stamp.version));
    return true;
  }

  /** Reads an object and checks it against the session's past; its version, or null when not found. */
  private async read(id: string): Promise<number | null> {
    const done = this.shared.history.begin(this.index);
    const reply = await this.http.request('GET', `${API}/frameworks/${id}`).catch((err: unknown) => {
      done('fail', [['r', id, null]]);
      throw err;
    });
    if (reply.status === 404) done('ok', [['r', id, []]]);
    else if (reply.status !== 200) done('fail', [['r', id, null]]);
    else done('ok', [['r', id, parseStamp(reply.body.data.description).list ?? [0]]]);
    if (reply.status === 404) {
      const broken = this.knowledge.regression(id, -1);
      if (broken) this.violation(broken.guarantee, `GET ${id}: 404, the session had seen v${broken.expected}`);
      return null;
    }
    if (reply.status !== 200) throw new Error(`read: ${reply.status}`);
    const stamp = parseStamp(reply.body.data.description);
    const broken = this.knowledge.regression(id, stamp.version);
    if (broken) this.violation(broken.guarantee, `GET ${id}: v${stamp.version}, the session had seen v${broken.expected}`);
    this.knowledge.read(id, stamp.version, Date.parse(reply.body.data.dateModified));
    if (stamp.after) this.knowledge.dependsOn(stamp.after.id, stamp.after.version);
    return stamp.version;
  }

  private randomOwned(): string {
    const ids = [...this.owned.keys()];
    return ids[Math.floor(Math.random() * ids.length)];
  }
}

/** A 503 whose only error is the store's plain "Service Unavailable": the write was not made. */
const knownNotWritten = (body: { errors?: { description?: unknown }[] } | undefined): boolean =>
  body?.errors?.length === 1 && body.errors[0].description === 'Service Unavailable';
