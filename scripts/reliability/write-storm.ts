import { aFramework } from '../../test/fixtures/frameworks';
import { CookieJar, request, type Reply } from '../../test/fixtures/server';
import { openStore } from '../../src/store/open-store';
import { decodeSession } from '../../src/http/session';

const API = '/api/2.5';

/** Fields an active framework lets its owner change; each (object, field) pair has exactly one writer. */
const WRITABLE_FIELDS = [
  { name: 'description', patch: (v: string) => ({ description: v }), read: (d: any) => d.description },
  { name: 'description_en', patch: (v: string) => ({ description_en: v }), read: (d: any) => d.description_en },
  { name: 'description_ru', patch: (v: string) => ({ description_ru: v }), read: (d: any) => d.description_ru },
  {
    name: 'contactPoint.name',
    patch: (v: string) => ({ procuringEntity: { contactPoint: { name: v } } }),
    read: (d: any) => d.procuringEntity?.contactPoint?.name,
  },
] as const;

export interface StormOptions {
  /** API node URLs; writer i talks to node i mod N and moves on when its node stops answering. */
  targets: string[];
  /** Store the nodes share, read directly at the end to count revisions. */
  storeUrl: string;
  /** The nodes' SESSION_SECRET: the store is read at the causal position a client's cookie names. */
  sessionSecret: string;
  objects: number;
  /** Writers per object (at most 4): one per writable field. */
  writersPerObject: number;
  writesPerWriter: number;
  /** How long the feed may lag the last acknowledged write (MongoDB: FEED_DELAY_BOUND_MS); the crawler waits it out. */
  feedSettleMs?: number;
  /** Called once, when half of all writes are acknowledged (fault injection: kill a node…). */
  atHalfway?: () => Promise<void>;
}

export interface StormResult {
  writers: number;
  acknowledged: number;
  /** Acknowledged writes missing from the final state or from the revision count. */
  lost: number;
  /** What each loss was: a field read back at an older value, or an object with fewer revisions than writes. */
  lostWrites: string[];
  /** Stored revisions that no acknowledged or uncertain write accounts for. */
  phantom: number;
  conflicts: number;
  /** 412 answers (cookie of a dead node) after which the client retried. */
  preconditionRetries: number;
  /** Attempts whose outcome the client cannot know (connection cut, 503) and retried. */
  uncertain: number;
  serverErrors: number;
  crawl: CrawlResult;
}

export interface CrawlResult {
  pages: number;
  /** Acknowledged changes that the forward crawler never saw (the object at that state or later). */
  missedForward: number;
  /** Objects a descending crawl after the storm did not list at their final dateModified. */
  missedDescending: number;
  /** Times an object's dateModified, as crawled forwards, was older than one seen before. */
  dateModifiedBackwards: number;
  /** From the last acknowledged write to the forward crawler's last page that listed something new. */
  caughtUpMs: number;
}

interface Ack {
  id: string;
  dateModified: string;
  /** The value written and the node that acknowledged it, to name a lost write. */
  write: string;
}

/**
 * Hundreds of writers PATCH the same active frameworks through several nodes while a crawler follows
 * `next_page`. Each writer owns one field of one object and writes `w<i>-1…n` in order, so the final state
 * must hold every writer's last acknowledged value, and the object's revision must count exactly the writes
 * acknowledged (plus, at most, those whose outcome the client could not know).
 */
export async function runWriteStorm(options: StormOptions): Promise<StormResult> {
  const fields = WRITABLE_FIELDS.slice(0, options.writersPerObject);
  /** Writer of the `f`th field of the `o`th object: its values are `w<writer>-<n>`. */
  const writerOf = (o: number, f: number) => o * fields.length + f;
  const ids: string[] = [];
  const setup = new CookieJar();
  for (let i = 0; i < options.objects; i++) ids.push(await createActiveFramework(options.targets[i % options.targets.length], setup));
  const startRevs = await storedRevisions(options, ids, setup);
  const crawler = startForwardCrawler(options.targets[0], options.feedSettleMs ?? 0);
  const totalWrites = ids.length * fields.length * options.writesPerWriter;
  const tally = { acknowledged: 0, conflicts: 0, preconditionRetries: 0, uncertain: 0, serverErrors: 0 };
  const acks: Ack[] = [];
  const lastAcked = new Map<string, number>();
  let halfway: Promise<void> | undefined;
  const writers = ids.flatMap((id, o) =>
    fields.map(async (field, f) => {
      const writer = writerOf(o, f);
      const jar = new CookieJar();
      let node = writer % options.targets.length;
      for (let n = 1; n <= options.writesPerWriter; n++) {
        const value = `w${writer}-${n}`;
        for (;;) {
          const reply = await patch(options.targets[node], id, field.patch(value), jar);
          if (reply?.status === 200) {
            tally.acknowledged++;
            acks.push({ id, dateModified: reply.body.data.dateModified, write: `${value} through node ${node}` });
            lastAcked.set(`${id}/${field.name}`, n);
            if (field.read(reply.body.data) !== value) tally.serverErrors++;
            if (options.atHalfway && !halfway && tally.acknowledged * 2 >= totalWrites) halfway = options.atHalfway();
            break;
          }
          if (reply?.status === 409) tally.conflicts++;
          else if (reply?.status === 412) tally.preconditionRetries++;
          else {
            if (!reply || reply.status === 503) tally.uncertain++;
            else if (reply.status >= 500) tally.serverErrors++;
            else throw new Error(`writer ${writer}: unexpected ${reply.status} ${reply.text}`);
            node = (node + 1) % options.targets.length;
          }
        }
      }
    }),
  );
  await Promise.all(writers);
  await halfway;
  const crawledForward = await crawler.stop();

  const lostWrites: string[] = [];
  let lost = 0;
  let phantom = 0;
  const liveTarget = options.targets[options.targets.length - 1];
  // A client that has seen every acknowledged write: one that wrote after all of them were acknowledged. A client
  // without a session may read them late, by the change stream's delay (docs/mongodb.md §Kept views on MongoDB).
  const fence = new CookieJar();
  await createActiveFramework(liveTarget, fence);
  const endRevs = await storedRevisions(options, ids, fence);
  for (const [o, id] of ids.entries()) {
    const final = (await request(liveTarget, 'GET', `${API}/frameworks/${id}`, { jar: fence })).body.data;
    for (const [f, field] of fields.entries()) {
      const expected = `w${writerOf(o, f)}-${lastAcked.get(`${id}/${field.name}`)}`;
      if (field.read(final) === expected) continue;
      lost++;
      lostWrites.push(`${id} ${field.name}: ${field.read(final)} read, ${expected} acknowledged`);
    }
    const updates = endRevs.get(id)! - startRevs.get(id)!;
    const acked = fields.length * options.writesPerWriter;
    if (updates < acked) {
      lost += acked - updates;
      const missing = await writesWithoutVersion(liveTarget, id, acks, fence);
      lostWrites.push(`${id}: ${updates} revisions stored for ${acked} writes acknowledged; in no version: ${missing.join('; ')}`);
    }
    if (updates > acked + tally.uncertain) phantom += updates - acked - tally.uncertain;
  }
  const descending = await crawlDescending(liveTarget);
  const finalModified = new Map(acks.map((a) => [a.id, a.dateModified]));
  for (const a of acks) if (Date.parse(a.dateModified) > Date.parse(finalModified.get(a.id)!)) finalModified.set(a.id, a.dateModified);
  return {
    writers: ids.length * fields.length,
    ...tally,
    lost,
    lostWrites,
    phantom,
    crawl: {
      pages: crawledForward.pages + descending.pages,
      missedForward: acks.filter((a) => !seenAtOrAfter(crawledForward, a.id, a.dateModified)).length,
      missedDescending: [...finalModified].filter(([id, modified]) => !seenAtOrAfter(descending, id, modified)).length,
      dateModifiedBackwards: crawledForward.backwards,
      caughtUpMs: crawledForward.caughtUpMs,
    },
  };
}

/**
 * Each object's revision as the store holds it, read at the causal position of `jar`'s client (who wrote after every
 * write counted was acknowledged), by a store opened for this read alone: it keeps no earlier read to vouch for.
 */
async function storedRevisions(
  options: Pick<StormOptions, 'storeUrl' | 'sessionSecret'>,
  ids: string[],
  jar: CookieJar,
): Promise<Map<string, number>> {
  const claims = decodeSession(jar.session, options.sessionSecret);
  if (!claims) throw new Error('no SESSION cookie to read after');
  const store = await openStore(options.storeUrl, { readPreference: 'primary' });
  try {
    const session = store.session(claims.causal);
    const revs = new Map<string, number>();
    for (const id of ids) revs.set(id, (await session.get('frameworks', id))!.rev);
    return revs;
  } finally {
    await store.close();
  }
}

/**
 * The acknowledged writes of `id` that no version of its history shows (`GET …/historical`, one version per visible
 * commit), read as `jar`'s client: a version's dateModified is the one its write's answer gave.
 */
async function writesWithoutVersion(target: string, id: string, acks: Ack[], jar: CookieJar): Promise<string[]> {
  const path = `${API}/frameworks/${id}/historical`;
  const versions = Number((await request(target, 'GET', path, { jar })).headers.get('x-revision-n'));
  const shown = new Set<string>();
  for (let n = 1; n <= versions; n++) {
    shown.add((await request(target, 'GET', path, { jar, headers: { 'X-Revision-N': String(n) } })).body.data.dateModified);
  }
  return acks.filter((a) => a.id === id && !shown.has(a.dateModified)).map((a) => `${a.write} (${a.dateModified})`);
}

async function createActiveFramework(target: string, jar = new CookieJar()): Promise<string> {
  const created = await request(target, 'POST', `${API}/frameworks`, { key: 'broker', jar, body: { data: aFramework(new Date()) } });
  if (created.status !== 201) throw new Error(`framework not created: ${created.status} ${created.text}`);
  const { id } = created.body.data;
  const activated = await request(target, 'PATCH', `${API}/frameworks/${id}`, {
    key: 'broker',
    jar,
    token: created.body.access.token,
    body: { data: { status: 'active' } },
  });
  if (activated.status !== 200) throw new Error(`framework not activated: ${activated.status} ${activated.text}`);
  ownerTokens.set(id, created.body.access.token);
  return id;
}

const ownerTokens = new Map<string, string>();

/** A PATCH as the owner, or null when the node did not answer (killed, connection reset). */
async function patch(target: string, id: string, data: unknown, jar: CookieJar): Promise<Reply | null> {
  try {
    return await request(target, 'PATCH', `${API}/frameworks/${id}`, { key: 'broker', jar, token: ownerTokens.get(id), body: { data } });
  } catch {
    return null;
  }
}

interface Crawled {
  pages: number;
  /** The newest dateModified seen per object. */
  latest: Map<string, string>;
  backwards: number;
}

async function feedPage(target: string, path: string): Promise<{ data: { id: string; dateModified: string }[]; next: string }> {
  const reply = await request(target, 'GET', path);
  if (reply.status !== 200) throw new Error(`feed ${path}: ${reply.status} ${reply.text}`);
  return { data: reply.body.data, next: reply.body.next_page.path };
}

const seenAtOrAfter = (crawled: Crawled, id: string, dateModified: string) =>
  crawled.latest.has(id) && Date.parse(crawled.latest.get(id)!) >= Date.parse(dateModified);

function record(crawled: Crawled, entries: { id: string; dateModified: string }[]) {
  for (const { id, dateModified } of entries) {
    const seen = crawled.latest.get(id);
    if (seen && Date.parse(dateModified) < Date.parse(seen)) crawled.backwards++;
    else crawled.latest.set(id, dateModified);
  }
}

/** Follows `next_page` from the start until stopped, then until an empty page: never restarts. */
/** Follows `next_page` until stopped and, after that, until a page comes back empty `settleMs` after the stop. */
function startForwardCrawler(target: string, settleMs: number) {
  const crawled: Crawled & { caughtUpMs: number } = { pages: 0, latest: new Map(), backwards: 0, caughtUpMs: 0 };
  let stoppedAt: number | null = null;
  let path = `${API}/frameworks?limit=20`;
  const done = (async () => {
    for (;;) {
      const page = await feedPage(target, path);
      crawled.pages++;
      record(crawled, page.data);
      path = page.next;
      if (page.data.length > 0 && stoppedAt !== null) crawled.caughtUpMs = performance.now() - stoppedAt;
      if (page.data.length === 0) {
        if (stoppedAt !== null && performance.now() - stoppedAt >= settleMs) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  })();
  return {
    async stop() {
      stoppedAt = performance.now();
      await done;
      return crawled;
    },
  };
}

async function crawlDescending(target: string): Promise<Crawled> {
  const crawled: Crawled = { pages: 0, latest: new Map(), backwards: 0 };
  let path = `${API}/frameworks?descending=1&limit=20`;
  for (;;) {
    const page = await feedPage(target, path);
    crawled.pages++;
    if (page.data.length === 0) return crawled;
    for (const { id, dateModified } of page.data) if (!crawled.latest.has(id)) crawled.latest.set(id, dateModified);
    path = page.next;
  }
}
