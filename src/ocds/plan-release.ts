import { ocidOf, releaseIdOf } from './ocds-option';
import { Parties } from './parties';
import { documentsOf, itemsOf, milestonesOf, partOf, partsOf, periodOf, valueOf, type OcdsObject, type ViewPart } from './parts';
import { prune } from './prune';

/** A plan's status as OCDS's `tenderStatus` (docs/ocds.md §Plans). */
const PLAN_STATUSES: Record<string, string> = { draft: 'planning', scheduled: 'planned', complete: 'planned', cancelled: 'cancelled' };

/** OCDS `Planning` from a plan, as the reference fills it into a tender's release. */
export function planning(plan: ViewPart): OcdsObject {
  const budget = partOf(plan.budget);
  const project = partOf(budget?.project);
  return {
    rationale: partOf(plan.rationale)?.description ?? (typeof plan.rationale === 'string' ? plan.rationale : undefined),
    budget: budget && {
      id: budget.id,
      description: budget.description,
      amount: valueOf(budget),
      projectID: project?.id,
      project: project?.name || project?.name_en,
    },
    documents: documentsOf(partsOf(plan.documents)),
    milestones: milestonesOf(partsOf(plan.milestones)),
  };
}

/** A tender's link to the plan it came from: OCDS's `planning` related process, named by the plan's ocid. */
export const planningProcess = (plan: ViewPart): OcdsObject => ({
  id: plan.id,
  relationship: ['planning'],
  title: plan.planID,
  scheme: 'ocid',
  identifier: ocidOf(plan.id as string),
});

/** The release of a plan: its own contracting process, tagged `planning` (docs/ocds.md §Plans). */
export function planRelease(plan: ViewPart) {
  const parties = new Parties();
  const procuringEntity = parties.add(partOf(plan.procuringEntity), 'procuringEntity', 'procuringEntity');
  const buyers = partsOf(plan.buyers).map((org, n) => parties.add(org, 'buyer', `buyer-${n}`));
  const tender = partOf(plan.tender) ?? {};
  // A plan is never restricted: its view is the plan (docs/ocds.md §Plans).
  const { id, dateModified, status } = plan as { id: string; dateModified: string; status: string };
  return prune({
    ocid: ocidOf(id),
    id: releaseIdOf(id, dateModified),
    date: dateModified,
    tag: ['planning'],
    initiationType: 'tender',
    parties: parties.list(),
    buyer: buyers[0] ?? procuringEntity,
    planning: planning(plan),
    tender: {
      id,
      status: PLAN_STATUSES[status] ?? 'planning',
      procuringEntity,
      items: itemsOf(partsOf(plan.items)),
      value: valueOf(partOf(plan.budget)),
      procurementMethod: tender.procurementMethod || undefined,
      procurementMethodDetails: tender.procurementMethodType || undefined,
      procurementMethodRationale: tender.procurementMethodRationale,
      mainProcurementCategory: plan.mainProcurementCategory,
      tenderPeriod: periodOf(partOf(tender.tenderPeriod)),
    },
  });
}
