import { isDeepStrictEqual } from 'node:util';
import type { Account } from '../../http/auth';
import { apiError, notFound } from '../../http/errors';
import { issueAccess, type Access } from '../../security/tokens';
import type { Change, StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import type { Actor } from '../core/actor';
import { dailyId, newId } from '../core/ids';
import { insertOf } from '../save-rules';
import { activeStatusOf, type TenderContext, type TenderProcedure } from './procedure';
import { procedureOf } from './procedures';
import { validateTenderConfig } from './tender.config';
import { withServerDefaults } from './tender-defaults';
import { validated, mergePatch } from '../core/validation';
import { checkVersioned, TENDER_VERSIONED_RULES } from '../core/versioned-rules';
import { tenderOf, saveTender, withNextCheck, type StoredTender } from './tender-aggregate';
import type { Tender, TenderContent, TenderDoc } from './tender.types';

/** The procedure of a stored tender (whose type was one of the procedures when it was created). */
export const procedureOfStored = (data: object): TenderProcedure =>
  procedureOf((data as { procurementMethodType?: unknown }).procurementMethodType)!;

/**
 * Creation needs one of the procedure's accreditation levels; a central procuring entity needs level 5
 * (docs/platform.md §API keys and accreditation).
 */
function requireAccreditation(account: Account, procedure: TenderProcedure, tender: TenderContent): void {
  const allowed = tender.procuringEntity?.kind === 'central' ? ['5'] : procedure.accreditation.create;
  if (!allowed.some((level) => account.levels.includes(level))) {
    throw apiError(403, 'Broker Accreditation level does not permit tender creation', { location: 'url', name: 'accreditation' });
  }
}

/** Runs the procedure's save rules, the date-dependent rules and the period computation, in that order. */
async function checkAndComplete(procedure: TenderProcedure, tender: TenderContent, ctx: TenderContext, createdAt: string): Promise<void> {
  for (const rule of procedure.rules.save) await rule(tender, ctx);
  checkVersioned(TENDER_VERSIONED_RULES, tender, createdAt);
  procedure.periods(tender, ctx);
}

/** A tender created from other objects (`POST /plans/{id}/tenders`): its `plans[]`, and their changes, saved with it. */
export interface TenderOrigin {
  plans: { id: string }[];
  writes(tender: TenderDoc): Change[];
}

/** A request to create a tender: its `data`, and its `config`, read only once `data` has passed the procedure's schema. */
export interface TenderRequest {
  data: Record<string, unknown>;
  config: () => Record<string, unknown> | undefined;
}

/**
 * `POST /tenders` (docs/tenders.md §Tender creation) by a broker: a draft with server-set members and a fresh owner
 * token. With an `origin`, the tender lists its plans and is stored in one commit with their changes
 * (docs/plans.md §Tenders).
 */
export async function createTender(
  session: StoreSession,
  { data, config: configOf }: TenderRequest,
  { account, now }: Actor,
  origin?: TenderOrigin,
): Promise<{ doc: TenderDoc; access: Access }> {
  const procedure = procedureOf(data.procurementMethodType);
  if (!procedure) throw notFound('not_found');
  const request = validated<TenderContent>(procedure.schemas.create, data);
  const config = validateTenderConfig(procedure.config, configOf());
  requireAccreditation(account, procedure, request);
  const stamp = formatKyiv(now);
  const tender = withServerDefaults({ ...request, procurementMethodType: procedure.type, status: 'draft' }, procedure, config, now);
  await checkAndComplete(procedure, tender, { now, session, config }, stamp);
  const { access, secrets } = issueAccess();
  const doc: TenderDoc = {
    data: {
      id: newId(),
      tenderID: '', // numbered by the commit, in this place among the members
      ...tender,
      owner: account.name,
      date: stamp,
      dateCreated: stamp,
      dateModified: stamp,
    },
    config,
    secrets,
  };
  if (origin) doc.data.plans = origin.plans;
  const writes = [insertOf('tenders', doc), ...(origin?.writes(doc) ?? [])];
  await session.commit(
    writes,
    dailyId('tenderID', 'UA', now, (id) => (doc.data.tenderID = `${id}-a`)),
  );
  return { doc, access };
}

/** The tender in a status its procedure lets change (`refusal` words the 403). */
export function requireEditable(stored: StoredTender, refusal: (status: string) => string): void {
  const { status } = stored.doc.data;
  if (!procedureOfStored(stored.doc.data).editableStatuses.includes(status)) throw apiError(403, refusal(status));
}

/**
 * `PATCH /tenders/{id}` by the owner (docs/tenders.md §Owner edits, §Activation): merges the patch, re-runs the rules, activates when
 * `status` names the procedure's active state, and saves only when something changed. The request's `data` is read
 * once the tender's status lets it change: that refusal answers first.
 */
export async function patchTender(
  session: StoreSession,
  stored: StoredTender,
  data: () => Record<string, unknown>,
  now: Date,
): Promise<TenderDoc> {
  requireEditable(stored, (status) => `Can't update tender in current (${status}) status`);
  const before = stored.doc.data;
  const patch = validated<Partial<Tender>>(procedureOfStored(before).schemas.patch, data());
  if (patch.status === 'draft' && before.status !== 'draft') throw apiError(422, "Can't change status to draft", { name: 'status' });
  return saveTenderChange(session, stored, mergePatch(before, patch), now);
}

/**
 * Saves a changed tender through everything a PATCH runs (server defaults, the procedure's rules, activation,
 * `next_check`), so sub-resource endpoints (lots) obey the same rules; nothing is saved when nothing changed.
 */
export async function saveTenderChange(session: StoreSession, stored: StoredTender, changed: Tender, now: Date): Promise<TenderDoc> {
  // Rules see the tender with its bids, sealed or not (docs/tenders.md §Bids).
  const before = tenderOf(stored.doc);
  const procedure = procedureOfStored(before);
  const config = stored.doc.config ?? {};
  const tctx: TenderContext = { now, session, config, before };
  const tender = withServerDefaults(before.bids ? { ...changed, bids: before.bids } : changed, procedure, config, now);
  await checkAndComplete(procedure, tender, tctx, before.dateCreated);
  if (before.status === 'draft' && tender.status === activeStatusOf(procedure)) await activate(procedure, tender, tctx);
  const data = withNextCheck(procedure, tender);
  if (isDeepStrictEqual(data, before)) return stored.doc;
  return saveTender(session, stored, { ...data, dateModified: formatKyiv(now) });
}

async function activate(procedure: TenderProcedure, tender: Tender, ctx: TenderContext): Promise<void> {
  for (const rule of procedure.rules.activate) await rule(tender, ctx);
  tender.date = formatKyiv(ctx.now);
  await procedure.activate(tender, ctx);
}
