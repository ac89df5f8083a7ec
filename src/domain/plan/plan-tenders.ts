import { apiError, ApiError, type ErrorEntry } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import type { Actor } from '../core/actor';
import type { StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { createTender, type TenderRequest } from '../tender';
import { changedPlan } from './plan.lifecycle';
import type { Plan, PlanDoc } from './plan.types';

/**
 * Procedures a tender may start with (`FIRST_STAGE_PROCUREMENT_TYPES`, HEAD's members: the spec era's and
 * `requestForProposal`, `competitiveOrdering`), printed as the reference prints a Python set.
 */
const FIRST_STAGE = [
  'belowThreshold',
  'closeFrameworkAgreementUA',
  'esco',
  'competitiveDialogueUA',
  'competitiveDialogueEU',
  'reporting',
  'negotiation',
  'negotiation.quick',
  'aboveThresholdEU',
  'aboveThreshold',
  'aboveThresholdUA',
  'aboveThresholdUA.defense',
  'simple.defense',
  'priceQuotation',
  'requestForProposal',
  'competitiveOrdering',
];
const CENTRAL_PROCUREMENT_IDENTIFIER = '01101100';

const unprocessable = (name: string, description: unknown) => apiError(422, description, { name });

/** The tender a request gives, read here before its procedure's schema checks it: any member may be of any kind. */
interface GivenTender {
  procurementMethodType?: unknown;
  procuringEntity?: unknown;
  items?: unknown;
}
/** What these checks read of a given organization or item, where they are objects. */
type GivenIdentifier = { identifier?: { id?: unknown; scheme?: unknown } } | null | undefined;
type GivenItem = { classification?: { id?: unknown } } | null | undefined;

/** docs/plans.md §Tenders: the plan may still get a tender (`_validate_plan_scheduled`, `_validate_plan_has_not_tender`). */
function requireOpenPlan(plan: Plan): void {
  if (plan.status && plan.status !== 'scheduled') throw unprocessable('status', `Can't create tender in '${plan.status}' plan status`);
  if (plan.tender_id) throw unprocessable('tender_id', 'This plan has already got a tender');
}

/** docs/plans.md §Tenders: a first-stage procedure of the plan's type (a plan of `centralizedProcurement` takes any; belowThreshold allows priceQuotation). */
function requireMatchingType(plan: Plan, tender: GivenTender): void {
  const type = tender.procurementMethodType;
  if (typeof type !== 'string' || !FIRST_STAGE.includes(type)) {
    throw apiError(403, `Should be one of the first stage values: {${FIRST_STAGE.map((t) => `'${t}'`).join(', ')}}`, {
      name: 'procurementMethodType',
    });
  }
  const planned = plan.tender.procurementMethodType;
  if (planned === type || planned === 'centralizedProcurement' || (type === 'priceQuotation' && planned === 'belowThreshold')) return;
  throw unprocessable('procurementMethodType', `procurementMethodType doesn't match: ${planned} != ${type}`);
}

/** docs/plans.md §Tenders: the tender's buyer is the plan's (its buyer's for the central purchasing body) and its items are of the plan's CPV group. */
function requireMatchingContent(plan: Plan, tender: GivenTender): void {
  const errors: ErrorEntry[] = [];
  const central =
    plan.tender.procurementMethodType === 'centralizedProcurement' && plan.procuringEntity.identifier.id === CENTRAL_PROCUREMENT_IDENTIFIER;
  const planned = central ? plan.buyers![0].identifier : plan.procuringEntity.identifier;
  const given = (tender.procuringEntity as GivenIdentifier)?.identifier ?? {};
  if (planned.id !== given.id || planned.scheme !== given.scheme) {
    errors.push({
      location: 'body',
      name: 'procuringEntity',
      description: `procuringEntity.identifier doesn't match: ${planned.scheme} ${planned.id} != ${String(given.scheme)} ${String(given.id)}`,
    });
  }
  const code = plan.classification.id;
  const group = code.startsWith('336') ? code.slice(0, 3) : code.slice(0, 4);
  (Array.isArray(tender.items) ? (tender.items as GivenItem[]) : []).forEach((item, i) => {
    const id = item?.classification?.id;
    if (typeof id === 'string' && !id.startsWith(group)) {
      errors.push({
        location: 'body',
        name: `items[${i}].classification.id`,
        description: `Plan classification.id ${code} and item's ${id} should be of the same group ${group}`,
      });
    }
  });
  if (errors.length) throw new ApiError(422, errors);
}

/** docs/plans.md §Tenders: a tender is made only from a plan with a budget breakdown. */
function requireBreakdown(plan: Plan): void {
  if (!plan.budget?.breakdown?.length) throw unprocessable('budget.breakdown', 'Plan should contain budget breakdown');
}

/**
 * `POST /plans/{id}/tenders` (docs/plans.md §Tenders): any broker creates a tender from a scheduled plan, as
 * `POST /tenders` would, with `plans: [{id}]`; the plan gets `tender_id` and so becomes `complete`, in the same commit.
 */
export async function createTenderFromPlan(
  session: StoreSession,
  stored: StoredObject<PlanDoc>,
  request: TenderRequest,
  actor: Actor,
): ReturnType<typeof createTender> {
  const plan = stored.doc.data;
  const tender = request.data;
  requireOpenPlan(plan);
  requireMatchingType(plan, tender);
  requireMatchingContent(plan, tender);
  requireBreakdown(plan);
  return createTender(session, request, actor, {
    plans: [{ id: plan.id }],
    writes: (created) => {
      const linked = changedPlan(stored, { tender_id: created.data.id }, actor.now);
      return linked ? [updateOf(stored, linked, ['milestones'])] : [];
    },
  });
}
