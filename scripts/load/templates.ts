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
import { issueAccess } from '../../src/security/tokens';
import type { Kind } from '../../src/store/port';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { systemClock } from '../../src/time/clock';
import { readRecording } from './recording';
import { koaHandler } from '../../src/http/koa-handler';

/** Stored documents the loader varies: each exactly as the API stored it (or, failing that, as recorded). */
export interface Templates {
  /** `api` when the documents were made through the product's own endpoints; `recording` otherwise. */
  source: 'api' | 'recording';
  tender: { active: ObjectDoc; restricted: ObjectDoc; draft: ObjectDoc };
  framework: ObjectDoc;
  /** Request bodies the write scenarios send (reference bodies with dates moved to the future). */
  bodies: { tender: any; framework: any; submission: any; tenderActivation: any };
  notes: string[];
}

const TUTORIAL = 'tendering/belowthreshold/http/tutorial';
const DPS = 'frameworks/dps/tutorial';
const DAY = 86_400_000;
const kyiv = (ms: number) => new Date(ms + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+02:00');

/** The reference's request bodies, with period ends moved relative to now so the API accepts them today. */
export function requestBodies(now = Date.now()) {
  const tender = structuredClone(readRecording(`${TUTORIAL}/tender-post-attempt-json-data.http`).requestBody);
  tender.data.enquiryPeriod.endDate = kyiv(now + 10 * DAY);
  tender.data.tenderPeriod.endDate = kyiv(now + 20 * DAY);
  // The recording is the reference's 'attempt' (no minimalStep); with hasAuction the product requires one.
  tender.data.minimalStep ??= { amount: 5, currency: tender.data.value.currency };
  // Activation needs every item in a lot: one lot (the reference's tender-add-lot body), items related to it.
  const lot = readRecording(`${TUTORIAL}/tender-add-lot.http`).requestBody.data;
  tender.data.lots ??= [{ id: 'dddddddddddddddddddddddddddddddd', ...lot }];
  for (const item of tender.data.items) item.relatedLot ??= tender.data.lots[0].id;
  const framework = structuredClone(readRecording(`${DPS}/create-framework.http`).requestBody);
  framework.data.qualificationPeriod.endDate = kyiv(now + 400 * DAY);
  const submission = structuredClone(readRecording(`${DPS}/register-submission.http`).requestBody);
  const tenderActivation = readRecording(`${TUTORIAL}/tender-activating.http`).requestBody;
  return { tender, framework, submission, tenderActivation };
}

const recorded = (file: string, status?: string): ObjectDoc => {
  const body = structuredClone(readRecording(file).responseBody);
  const doc: ObjectDoc = { data: body.data, config: body.config, secrets: issueAccess().secrets };
  if (status) doc.data.status = status;
  return doc;
};

/**
 * Makes one tender (draft, active, restricted) and one active framework through the product's real endpoints
 * on a throw-away store and reads back what was stored. Whatever the API cannot make yet comes from the
 * reference recordings (noted), so the loader works while the domains are being built.
 */
export async function makeTemplates(): Promise<Templates> {
  const bodies = requestBodies();
  const notes: string[] = [];
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

  try {
    const created = await call('POST', '/tenders', bodies.tender);
    let tender: Templates['tender'];
    if (created.status !== 201) {
      notes.push(`POST /tenders answered ${created.status}: tender templates from the reference recordings`);
      const active = recorded(`${TUTORIAL}/tender-activating.http`);
      tender = {
        active,
        restricted: { ...active, config: { ...active.config, restricted: true } },
        draft: recorded(`${TUTORIAL}/tender-post-attempt-json-data.http`),
      };
    } else {
      const draft = await stored('tenders', created.body.data.id);
      const activated = await call(
        'PATCH',
        `/tenders/${created.body.data.id}?acc_token=${created.body.access.token}`,
        bodies.tenderActivation,
      );
      let active: ObjectDoc;
      if (activated.status === 200) active = await stored('tenders', created.body.data.id);
      else {
        notes.push(`tender activation answered ${activated.status}: active tender from the API draft with status active.enquiries`);
        active = structuredClone(draft);
        active.data.status = 'active.enquiries';
      }
      const restrictedBody = { ...bodies.tender, config: { ...bodies.tender.config, restricted: true } };
      const r = await call('POST', '/tenders', restrictedBody);
      let restricted: ObjectDoc;
      if (r.status === 201) {
        await call('PATCH', `/tenders/${r.body.data.id}?acc_token=${r.body.access.token}`, bodies.tenderActivation);
        restricted = await stored('tenders', r.body.data.id);
        if (restricted.data.status === 'draft') restricted.data.status = active.data.status;
      } else {
        notes.push(`POST /tenders with config.restricted answered ${r.status}: restricted = active with config.restricted true`);
        restricted = { ...active, config: { ...active.config, restricted: true } };
      }
      tender = { active, restricted, draft };
    }

    let framework: ObjectDoc;
    const f = await call('POST', '/frameworks', bodies.framework);
    if (f.status === 201) {
      const a = await call('PATCH', `/frameworks/${f.body.data.id}?acc_token=${f.body.access.token}`, { data: { status: 'active' } });
      if (a.status !== 200) notes.push(`framework activation answered ${a.status}: framework template is a draft`);
      framework = await stored('frameworks', f.body.data.id);
      if (framework.data.status === 'draft') framework.data.status = 'active';
    } else {
      notes.push(`POST /frameworks answered ${f.status}: framework template from the reference recordings`);
      framework = recorded(`${DPS}/get-framework.http`, 'active');
    }
    return { source: created.status === 201 ? 'api' : 'recording', tender, framework, bodies, notes };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
