import type { Doc } from '../domain/core/object-doc';
import { ocidOf, releaseIdOf } from './ocds-option';
import { Parties } from './parties';
import { documentsOf, itemsOf, milestonesOf, periodOf, valueOf } from './parts';
import { prune } from './prune';

/** A plan's status as OCDS's `tenderStatus` (docs/ocds.md §Plans). */
const PLAN_STATUSES: Record<string, string> = { draft: 'planning', scheduled: 'planned', complete: 'planned', cancelled: 'cancelled' };

/** OCDS `Planning` from a plan, as the reference fills it into a tender's release. */
export function planning(plan: Doc): Doc {
  const budget: Doc | undefined = plan.budget;
  return {
    rationale: plan.rationale?.description ?? (typeof plan.rationale === 'string' ? plan.rationale : undefined),
    budget: budget && {
      id: budget.id,
      description: budget.description,
      amount: valueOf(budget),
      projectID: budget.project?.id,
      project: budget.project?.name || budget.project?.name_en,
    },
    documents: documentsOf(plan.documents),
    milestones: milestonesOf(plan.milestones),
  };
}

/** A tender's link to the plan it came from: OCDS's `planning` related process, named by the plan's ocid. */
export const planningProcess = (plan: Doc): Doc => ({
  id: plan.id,
  relationship: ['planning'],
  title: plan.planID,
  scheme: 'ocid',
  identifier: ocidOf(plan.id),
});

/** The release of a plan: its own contracting process, tagged `planning` (docs/ocds.md §Plans). */
export function planRelease(plan: Doc): Doc {
  const parties = new Parties();
  const procuringEntity = parties.add(plan.procuringEntity, 'procuringEntity', 'procuringEntity');
  const buyers = (plan.buyers ?? []).map((org: Doc, n: number) => parties.add(org, 'buyer', `buyer-${n}`));
  const tender: Doc = plan.tender ?? {};
  return prune({
    ocid: ocidOf(plan.id),
    id: releaseIdOf(plan.id, plan.dateModified),
    date: plan.dateModified,
    tag: ['planning'],
    initiationType: 'tender',
    parties: parties.list(),
    buyer: buyers[0] ?? procuringEntity,
    planning: planning(plan),
    tender: {
      id: plan.id,
      status: PLAN_STATUSES[plan.status] ?? 'planning',
      procuringEntity,
      items: itemsOf(plan.items),
      value: valueOf(plan.budget),
      procurementMethod: tender.procurementMethod || undefined,
      procurementMethodDetails: tender.procurementMethodType || undefined,
      procurementMethodRationale: tender.procurementMethodRationale,
      mainProcurementCategory: plan.mainProcurementCategory,
      tenderPeriod: periodOf(tender.tenderPeriod),
    },
  });
}
