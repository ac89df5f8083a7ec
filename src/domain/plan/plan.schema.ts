import Joi from 'joi';
import { text, translated } from '../core/organization.schema';
import {
  addressSchema,
  classificationSchema,
  completeSignerInfoSchema,
  contactPointSchema,
  cpvSchema,
  md5,
  model,
  periodSchema,
  unitSchema,
} from '../core/parts.schema';
import { float } from '../core/float';
import { isoDate } from '../core/validation';
import { list } from '../core/lists';
import { PROCURING_ENTITY_KINDS, type Identifier, type Period } from '../core/shapes';
import type {
  BreakdownTitle,
  Budget,
  BudgetBreakdown,
  PlanBody,
  PlanBuyer,
  PlanCancellation,
  PlanItem,
  PlanMilestone,
  PlanMilestoneStatus,
  PlanOrganization,
  PlanProcuringEntity,
  PlanProject,
  PlanStatus,
  PlanTender,
  Rationale,
} from './plan.types';

/**
 * Plan request shapes (docs/plans.md §Fields): one schema for a whole plan, its optional form for a PATCH.
 * `model<T>` (core) holds a schema's members to the plan's types (plan.types.ts).
 */

export const PLAN_STATUSES: PlanStatus[] = ['draft', 'scheduled', 'cancelled', 'complete'];

/**
 * `procurementMethod` → the `procurementMethodType`s it allows (`planning/api/constants.py::PROCEDURES`, HEAD: the
 * spec-era table plus `requestForProposal` and `competitiveOrdering`), in the reference's order, which its messages print.
 */
export const PROCEDURES: Record<string, string[]> = {
  '': ['', 'centralizedProcurement'],
  open: [
    'belowThreshold',
    'aboveThreshold',
    'aboveThresholdUA',
    'aboveThresholdEU',
    'aboveThresholdUA.defense',
    'simple.defense',
    'competitiveDialogueUA',
    'competitiveDialogueEU',
    'esco',
    'closeFrameworkAgreementUA',
    'requestForProposal',
  ],
  selective: ['priceQuotation', 'competitiveOrdering'],
  limited: ['reporting', 'negotiation', 'negotiation.quick'],
};

/** Budget breakdown titles (`BREAKDOWN_TITLES`); `other` needs a description. */
export const BREAKDOWN_TITLES: BreakdownTitle[] = ['state', 'crimea', 'local', 'own', 'fund', 'loan', 'other'];

const identifierSchema = model<Identifier>('Identifier', {
  scheme: text().required(),
  id: text().required(),
  uri: text(),
  ...translated('legalName'),
});

/** `PlanOrganization`: `address` and `kind` become required by date (plan.rules.ts). */
const organizationKeys = {
  id: md5(),
  ...translated('name'),
  identifier: identifierSchema.required(),
  address: addressSchema,
  kind: Joi.string().valid(...PROCURING_ENTITY_KINDS),
};
// HEAD's `signerInfo` on the procuring entity and the buyer, never on a milestone's author (docs/plans.md §Fields).
const procuringEntityKeys = { ...organizationKeys, signerInfo: completeSignerInfoSchema };
const procuringEntitySchema = model<PlanProcuringEntity>('PlanOrganization', procuringEntityKeys).fork(['name'], (s) => s.required());
const buyerSchema = model<PlanBuyer>('BuyerOrganization', { ...procuringEntityKeys, contactPoint: contactPointSchema }).fork(
  ['name'],
  (s) => s.required(),
);

/** HEAD's plan-level `Project`: a title and a web address, an optional id. */
const projectSchema = model<PlanProject>('Project', {
  id: text(),
  title: text().required(),
  uri: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .required(),
});

/** Plan classifications are ДК021 only (`validate_scheme`), as tender items'. */
const planCpvSchema = cpvSchema.keys({ description_en: text(), description_ru: text() });

const additionalClassificationSchema = classificationSchema.keys({ description_en: text(), description_ru: text() });

const itemSchema = model<PlanItem>('Item', {
  id: text(),
  classification: planCpvSchema.required(),
  additionalClassifications: list('additionalClassifications', additionalClassificationSchema),
  unit: unitSchema,
  quantity: float().min(0),
  deliveryAddress: addressSchema,
  deliveryDate: periodSchema,
  ...translated('description'),
  profile: text(),
}).fork(['description'], (s) => s.required());

const tenderSchema = model<PlanTender>('Tender', {
  procurementMethod: Joi.string().valid(...Object.keys(PROCEDURES)),
  procurementMethodType: Joi.string().valid(...new Set(Object.values(PROCEDURES).flat())),
  tenderPeriod: periodSchema.required(),
});

const currency = () => Joi.string().length(3);

const breakdownSchema = model<BudgetBreakdown>('BudgetBreakdownItem', {
  id: md5(),
  title: Joi.string()
    .valid(...BREAKDOWN_TITLES)
    .required(),
  description: Joi.string().max(500),
  description_en: Joi.string().max(500),
  description_ru: Joi.string().max(500),
  value: model<BudgetBreakdown['value']>('Guarantee', { amount: float().min(0).required(), currency: currency() }).required(),
});

const budgetSchema = model<Budget>('Budget', {
  id: text().required(),
  ...translated('description'),
  amount: float().required(),
  currency: currency(),
  amountNet: float(),
  project: model<NonNullable<Budget['project']>>('Project', { id: text().required(), ...translated('name') }).fork(['name'], (s) =>
    s.required(),
  ),
  period: model<Required<Period>>('BudgetPeriod', { startDate: isoDate().required(), endDate: isoDate().required() }),
  year: Joi.number().integer().min(2000),
  notes: text(),
  breakdown: list('breakdown', breakdownSchema),
}).fork(['description'], (s) => s.required());

/** `id` and `date` are the server's; a stored cancellation carries them back through a PATCH's checks. */
const cancellationKeys = {
  id: md5(),
  ...translated('reason'),
  status: Joi.string().valid('pending', 'active'),
  date: isoDate(),
};

const rationaleSchema = model<Rationale>('RationaleObject', { description: Joi.string().max(2048).required(), date: isoDate() });

/** Members a client may give on a plan (`PatchPlan`); `POST` adds `documents`-free creation with required members. */
const planKeys = {
  status: Joi.string().valid(...PLAN_STATUSES),
  procuringEntity: procuringEntitySchema,
  tender: tenderSchema,
  budget: budgetSchema,
  classification: planCpvSchema,
  additionalClassifications: list('additionalClassifications', additionalClassificationSchema),
  tender_id: md5(),
  mode: Joi.string().valid('test'),
  items: list('items', itemSchema),
  buyers: list('buyers', buyerSchema).min(1),
  cancellation: model<PlanCancellation>('PlanCancellation', cancellationKeys).fork(['reason'], (s) => s.required()),
  rationale: rationaleSchema,
  project: projectSchema,
};

/** `POST /plans` data (`PostPlan`) and a plan as a PATCH leaves it (`Plan`): the whole object, required members in. */
export const planSchema = Joi.object<PlanBody, true>(planKeys).fork(['procuringEntity', 'tender', 'classification'], (s) => s.required());

/** `PATCH /plans/{id}` data (`PatchPlan`): any member, each replacing the stored one whole. */
export const patchPlanSchema = Joi.object<PlanBody, true>(planKeys);

/** The one milestone title and its default description (`MILESTONE_APPROVAL_TITLE`, `…_DESCRIPTION`). */
export const MILESTONE_APPROVAL_TITLE = 'Підготовка до проведення процедури';
const MILESTONE_APPROVAL_DESCRIPTION =
  'Узагальнення та аналіз отриманної інформації щодо проведення закупівель товарів, послуг (крім поточного ремонту) в інтересах замовників';
export const MILESTONE_STATUSES: PlanMilestoneStatus[] = ['scheduled', 'met', 'notMet', 'invalid'];

/** What a client gives of a milestone; the server adds its id, owner and dates. */
export type MilestoneRequest = Pick<PlanMilestone, 'status' | 'dueDate' | 'title' | 'description' | 'type'> & {
  author: Omit<PlanOrganization, 'id'> & { id?: string };
};

/** `POST /plans/{id}/milestones` data (`PostMilestone`, docs/plans.md §Milestones). */
export const postMilestoneSchema = Joi.object<MilestoneRequest, true>({
  status: Joi.string()
    .valid(...MILESTONE_STATUSES)
    .default('scheduled'),
  dueDate: isoDate().required(),
  title: Joi.string().valid(MILESTONE_APPROVAL_TITLE).required(),
  description: Joi.string().min(3).default(MILESTONE_APPROVAL_DESCRIPTION),
  type: Joi.string().valid('approval').required(),
  author: model<PlanOrganization>('BaseOrganization', organizationKeys)
    .fork(['name'], (s) => s.required())
    .required(),
});

/** `PATCH /plans/{id}/milestones/{milestone_id}` data (`PatchMilestone`). */
export const patchMilestoneSchema = Joi.object<Pick<PlanMilestone, 'status' | 'dueDate' | 'description'>, true>({
  status: Joi.string().valid(...MILESTONE_STATUSES),
  dueDate: isoDate(),
  description: Joi.string().min(3),
});
