import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { ObjectDoc } from '../../src/domain/core/objects';
import { loadAuthFile } from '../../src/http/auth';
import { soloMembership } from '../../src/membership/membership';
import type { Kind } from '../../src/store/port';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { systemClock } from '../../src/time/clock';
import { aFramework, aTenderer } from '../../test/fixtures/frameworks';
import { aLot, aTender, anItem, belowThresholdConfig } from '../../test/fixtures/tenders';
import { formatKyiv } from '../../src/time/kyiv';
import { koaHandler } from '../../src/http/koa-handler';

/** Stored documents the loader varies: each exactly as the API stored it. */
export interface Templates {
  /** Where the documents come from, as the bench reports it: the product's own endpoints. */
  source: 'api';
  tender: { active: ObjectDoc; restricted: ObjectDoc; draft: ObjectDoc };
  framework: ObjectDoc;
  /** Request bodies the write scenarios send (`requestBodies`). */
  bodies: { tender: any; framework: any; submission: any; tenderActivation: any };
  notes: string[];
}

const DAY = 86_400_000;
const LOT_ID = 'dddddddddddddddddddddddddddddddd';

/**
 * The request bodies of the write scenarios and the demo seed: the project's own test builders (test/fixtures), a
 * belowThreshold tender with one lot and its item in it (activation needs every item in a lot), with periods ending
 * relative to `now` so the API accepts them on any day.
 */
export function requestBodies(now = Date.now()) {
  const tender: { data: Record<string, any>; config: Record<string, unknown> } = {
    data: aTender({
      enquiryPeriod: { endDate: formatKyiv(new Date(now + 10 * DAY)) },
      tenderPeriod: { endDate: formatKyiv(new Date(now + 20 * DAY)) },
      lots: [aLot({ id: LOT_ID })],
      items: [anItem({ relatedLot: LOT_ID })],
    }),
    config: belowThresholdConfig(),
  };
  const framework = { data: aFramework(new Date(now)) };
  const submission = { data: { tenderers: [aTenderer()] } };
  const tenderActivation = { data: { status: 'active.enquiries' } };
  return { tender, framework, submission, tenderActivation };
}

/**
 * Makes one tender (draft, active, restricted) and one active framework through the product's real endpoints
 * on a throw-away store and reads back what was stored.
 */
export async function makeTemplates(): Promise<Templates> {
  const bodies = requestBodies();
  const dir = mkdtempSync(join(tmpdir(), 'registry-templates-'));
  const config = loadConfig({
    PORT: '0',
    STORE_URL: `sqlite:${join(dir, 't.db')}`,
    AUTH_FILE: join(__dirname, '../../auth.ini'),
    SESSION_SECRET: 'bench-template-secret',
    LOG_LEVEL: 'silent',
  });
  const store = openSqliteStore(join(dir, 't.db'));
  const app = createApp({
    config,
    store,
    membership: soloMembership('templates'),
    accounts: loadAuthFile(config.authFile),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  });
  const server = createServer(koaHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/2.5`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: 'Bearer broker', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json };
  };
  const stored = async (kind: Kind, id: string) => (await store.session().get(kind, id))!.doc as ObjectDoc;

  const made = async (method: string, path: string, body: unknown, expected: number) => {
    const reply = await call(method, path, body);
    if (reply.status !== expected) throw new Error(`templates: ${method} ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const activated = async (body: any) => {
    const created = await made('POST', '/tenders', body, 201);
    await made('PATCH', `/tenders/${created.data.id}?acc_token=${created.access.token}`, bodies.tenderActivation, 200);
    return stored('tenders', created.data.id);
  };

  try {
    const draftId = (await made('POST', '/tenders', bodies.tender, 201)).data.id;
    const active = await activated(bodies.tender);
    // belowThreshold takes no `restricted: true` through the API (only competitiveOrdering does): the loader, which
    // writes the store directly, marks a copy of the active tender restricted.
    const restricted = { ...active, config: { ...active.config, restricted: true } };
    const tender = { draft: await stored('tenders', draftId), active, restricted };
    const f = await made('POST', '/frameworks', bodies.framework, 201);
    await made('PATCH', `/frameworks/${f.data.id}?acc_token=${f.access.token}`, { data: { status: 'active' } }, 200);
    const framework = await stored('frameworks', f.data.id);
    return { source: 'api', tender, framework, bodies, notes: [] };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
