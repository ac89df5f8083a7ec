import { isDeepStrictEqual } from 'node:util';
import type { Ctx } from '../../http/context';
import { bodyConfig, bodyData } from '../../http/body';
import { apiError, notFound } from '../../http/errors';
import { issueAccess, type Access } from '../../security/tokens';
import type { Change, Doc, Stored } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { dailyId, newId } from '../core/ids';
import { insertOf, loadObject, type ObjectDoc } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import type { TenderContext, TenderProcedure } from './procedure';
import { procedureOf } from './procedures';
import { validateTenderConfig } from './tender.config';
import { withServerDefaults } from './tender-defaults';
import { nextCheckOf } from '../core/events';
import { validated, mergePatch } from '../core/validation';
import { checkVersioned, TENDER_VERSIONED_RULES } from './versioned-rules';
import { tenderOf, saveTender } from './tender-aggregate';

/** The procedure of a stored tender. */
export const procedureOfStored = (data: Doc): TenderProcedure => procedureOf(data.procurementMethodType)!;

/**
 * Creation needs one of the procedure's accreditation levels; a central procuring entity needs level 5
 * (docs/platform.md §API keys and accreditation).
 */
function requireAccreditation(ctx: Ctx, procedure: TenderProcedure, tender: Doc): void {
  const levels = ctx.state.viewer.account?.levels ?? '';
  const allowed = tender.procuringEntity?.kind === 'central' ? ['5'] : procedure.accreditation.create;
  if (!allowed.some((level) => levels.includes(level))) {
    throw apiError(403, 'Broker Accreditation level does not permit tender creation', { location: 'url', name: 'accreditation' });
  }
}

/** Runs the procedure's save rules, the date-dependent rules and the period computation, in that order. */
async function checkAndComplete(procedure: TenderProcedure, tender: Doc, ctx: TenderContext, createdAt: string): Promise<void> {
  for (const rule of procedure.rules.save) await rule(tender, ctx);
  checkVersioned(TENDER_VERSIONED_RULES, tender, createdAt);
  procedure.periods(tender, ctx);
}

/** A tender created from other objects (`POST /plans/{id}/tenders`): its `plans[]`, and their changes, saved with it. */
export interface TenderOrigin {
  plans: Doc[];
  writes(tender: ObjectDoc): Change[];
}

/**
 * `POST /tenders` (docs/tenders.md §Tender creation): a draft with server-set members and a fresh owner token. With
 * an `origin`, the tender lists its plans and is stored in one commit with their changes (docs/plans.md §Tenders).
 */
export async function createTender(ctx: Ctx, origin?: TenderOrigin): Promise<{ doc: ObjectDoc; access: Access }> {
  requireBroker(ctx);
  const data = bodyData(ctx);
  const procedure = procedureOf(data.procurementMethodType);
  if (!procedure) throw notFound('not_found');
  const request = validated<Doc>(procedure.schemas.create, data);
  const config = validateTenderConfig(procedure.config, bodyConfig(ctx));
  requireAccreditation(ctx, procedure, request);
  const { now, session } = ctx.state;
  const stamp = formatKyiv(now);
  const tender = withServerDefaults({ ...request, procurementMethodType: procedure.type, status: 'draft' }, procedure, config, now);
  await checkAndComplete(procedure, tender, { now, session, config }, stamp);
  const { access, secrets } = issueAccess();
  const doc: ObjectDoc = {
    data: {
      id: newId(),
      tenderID: '', // numbered by the commit, in this place among the members
      ...tender,
      owner: ctx.state.viewer.account!.name,
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

/** The stored tender, for a change by its owner while its procedure lets it change (`refusal` words the 403). */
export async function ownedEditableTender(ctx: Ctx, id: string, refusal: (status: string) => string): Promise<Stored & { doc: ObjectDoc }> {
  const stored = await loadObject(ctx.state.session, 'tenders', id);
  requireBroker(ctx);
  requireOwner(ctx, stored.doc);
  const { status } = stored.doc.data;
  if (!procedureOfStored(stored.doc.data).editableStatuses.includes(status)) throw apiError(403, refusal(status));
  return stored;
}

/**
 * `PATCH /tenders/{id}` by the owner (docs/tenders.md §Owner edits, §Activation): merges the patch, re-runs the rules, activates when
 * `status` names the procedure's active state, and saves only when something changed.
 */
export async function patchTender(ctx: Ctx, id: string): Promise<ObjectDoc> {
  const stored = await ownedEditableTender(ctx, id, (status) => `Can't update tender in current (${status}) status`);
  const before = stored.doc.data;
  const patch = validated<Doc>(procedureOfStored(before).schemas.patch, bodyData(ctx));
  if (patch.status === 'draft' && before.status !== 'draft') throw apiError(422, "Can't change status to draft", { name: 'status' });
  return saveTenderChange(ctx, stored, mergePatch(before, patch));
}

/**
 * Saves a changed tender through everything a PATCH runs (server defaults, the procedure's rules, activation,
 * `next_check`), so sub-resource endpoints (lots) obey the same rules; nothing is saved when nothing changed.
 */
export async function saveTenderChange(ctx: Ctx, stored: Stored & { doc: ObjectDoc }, changed: Doc): Promise<ObjectDoc> {
  const { now, session } = ctx.state;
  // Rules see the tender with its bids, sealed or not (docs/tenders.md §Bids).
  const before = tenderOf(stored.doc);
  const procedure = procedureOfStored(before);
  const config = stored.doc.config ?? {};
  const tctx: TenderContext = { now, session, config, before };
  const tender = withServerDefaults(before.bids ? { ...changed, bids: before.bids } : changed, procedure, config, now);
  await checkAndComplete(procedure, tender, tctx, before.dateCreated);
  if (before.status === 'draft' && tender.status === procedure.activeStatus) await activate(procedure, tender, tctx);
  const data = withNextCheck(procedure, tender);
  if (isDeepStrictEqual(data, before)) return stored.doc;
  return saveTender(session, stored, { ...data, dateModified: formatKyiv(now) });
}

async function activate(procedure: TenderProcedure, tender: Doc, ctx: TenderContext): Promise<void> {
  for (const rule of procedure.rules.activate) await rule(tender, ctx);
  tender.date = formatKyiv(ctx.now);
  await procedure.activate(tender, ctx);
}

/** The tender with `next_check` = its earliest pending event, or without one (docs/tenders.md §Tender events and next_check). */
export function withNextCheck(procedure: TenderProcedure, tender: Doc): Doc {
  const { next_check: _old, ...rest } = tender;
  const next = nextCheckOf(procedure.events(tender));
  return next ? { ...rest, next_check: next } : rest;
}
