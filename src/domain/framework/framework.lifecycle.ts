import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { issueAccess, type Access } from '../../security/tokens';
import { formatKyiv } from '../../time/kyiv';
import type { Actor } from '../core/actor';
import { dailyId, newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { insertOf, updateOf } from '../save-rules';
import { withNextCheck } from './framework.events';
import { withActivePeriods } from './framework.periods';
import { mergePatch, validated, validatedConfig } from '../core/validation';
import type { FrameworkRequest } from './framework.schema';
import type { Framework, FrameworkConfig, FrameworkDoc } from './framework.types';
import { frameworkProcedure } from './procedures';
import type { FrameworkRule } from './procedures/framework-procedure';

const runRules = (rules: FrameworkRule[], after: FrameworkDoc, before: FrameworkDoc | null, now: Date) => {
  for (const rule of rules) rule(after, before, now);
};

/** POST /frameworks: a draft with a prettyID, the creating broker as owner, and the owner token (returned once). */
export async function createFramework(
  session: StoreSession,
  body: { data: Record<string, unknown>; config?: Record<string, unknown> },
  { account, now }: Actor,
): Promise<{ doc: FrameworkDoc; access: Access }> {
  const type = typeof body.data.frameworkType === 'string' ? body.data.frameworkType : 'dynamicPurchasingSystem';
  const procedure = frameworkProcedure(type);
  if (!procedure.accreditation.create.some((level) => account.levels.includes(level))) {
    throw apiError(403, 'Broker Accreditation level does not permit framework creation', {
      location: 'url',
      name: 'accreditation',
    });
  }
  const data = validated<FrameworkRequest>(procedure.schemas.create, body.data);
  const config = validatedConfig<FrameworkConfig>(procedure.schemas.config, body.config);
  // Omitted: true for a defense procuring entity (docs/frameworks.md §Defense frameworks); every save keeps it so.
  const restrictedDerivatives = config.restrictedDerivatives ?? data.procuringEntity.kind === 'defense';
  const stamp = formatKyiv(now);
  const { access, secrets } = issueAccess();
  const doc: FrameworkDoc = {
    data: {
      ...data,
      procuringEntity: { kind: 'general', ...data.procuringEntity },
      status: 'draft',
      owner: account.name,
      date: stamp,
      dateCreated: stamp,
      dateModified: stamp,
      id: newId(),
    },
    config: { restrictedDerivatives, ...config },
    secrets,
  };
  runRules(procedure.rules.create, doc, null, now);
  await session.commit(
    [insertOf('frameworks', doc)],
    dailyId('framework', 'UA-F', now, (id) => (doc.data.prettyID = id)),
  );
  return { doc, access };
}

/**
 * PATCH /frameworks/{id} by the owner: draft edits, activation (periods, bounds, next_check) and the few
 * edits an active framework allows (docs/frameworks.md §Framework edits, §Framework status machine).
 */
export async function patchFramework(
  session: StoreSession,
  stored: StoredObject<FrameworkDoc>,
  patch: Record<string, unknown>,
  now: Date,
): Promise<FrameworkDoc> {
  const before = stored.doc;
  const procedure = frameworkProcedure(before.data.frameworkType);
  const newStatus = typeof patch.status === 'string' ? patch.status : before.data.status;
  const schema = newStatus === 'active' ? procedure.schemas.patchActive : procedure.schemas.patchDraft;
  const changes = validated<Partial<Framework>>(schema, patch);
  let after: FrameworkDoc = { ...before, data: mergePatch(before.data, changes) };
  const status = after.data.status;
  if (status !== 'draft' && status !== 'active') throw apiError(403, `Can't switch to ${status} status`);
  runRules(procedure.rules.patch, after, before, now);
  if (status === 'active') {
    after = withActivePeriods(after, now);
    if (before.data.status !== 'active') runRules(procedure.rules.activate, after, before, now);
  }
  after = withNextCheck(after);
  if (isDeepStrictEqual(after.data, before.data)) return before;
  after.data.dateModified = formatKyiv(now);
  await session.commit([updateOf(stored, after)]);
  return after;
}
