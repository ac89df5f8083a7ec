import Joi from 'joi';
import { list } from '../core/lists';
import { businessOrganizationSchema, itemSchema, md5, model, periodSchema, procuringEntitySchema, valueSchema } from '../core/parts.schema';
import { float } from '../core/float';
import { isoDate } from '../core/validation';
import { translated } from '../core/organization.schema';
import type { Duration, Guarantee, Milestone, Translated } from '../core/shapes';
import type { Feature, FeatureValue, Lot, Tender } from './tender.types';

/**
 * Tender request shapes (spec: Tender; docs/tenders.md §Tender creation). Server-set fields are not accepted, nor
 * are the arrays their own routes write, documents included (docs/platform.md §Server-managed arrays).
 */
const text = () => Joi.string().min(1);

export const MILESTONE_TITLES = [
  'executionOfWorks',
  'deliveryOfGoods',
  'submittingServices',
  'signingTheContract',
  'submissionDateOfApplications',
  'dateOfInvoicing',
  'endDateOfTheReportingPeriod',
  'anotherEvent',
];

/** What a request may give of a milestone: the server gives it an id where it has none, and contracts their status. */
type MilestoneRequest = Omit<Milestone, 'id' | 'status'> & { id?: string };

const milestoneSchema = Joi.object<MilestoneRequest, true>({
  id: md5(),
  title: Joi.string()
    .valid(...MILESTONE_TITLES)
    .required(),
  description: text(),
  type: Joi.string().valid('financing', 'delivery').required(),
  code: Joi.string().valid('prepayment', 'postpayment', 'standard').required(),
  percentage: float().greater(0).max(100).required(),
  duration: Joi.object<Duration, true>({
    days: Joi.number().integer().min(1).required(),
    type: Joi.string().valid('working', 'banking', 'calendar').required(),
  })
    .label('Duration')
    .required(),
  sequenceNumber: Joi.number().integer().min(0).required(),
  relatedLot: md5(),
}).label('Milestone');

const guaranteeSchema = () => Joi.object<Guarantee, true>({ amount: float().min(0).required(), currency: text() }).label('Guarantee');

/** What a request may give of a lot: the server sets its status and date. */
export type LotRequest = Omit<Lot, 'id' | 'status' | 'date' | 'auctionPeriod' | 'auctionUrl'> & { id?: string };

/** A lot as `POST /tenders` and `POST /tenders/{id}/lots` accept it. */
export const lotSchema = Joi.object<LotRequest, true>({
  id: md5(),
  ...translated('title'),
  ...translated('description'),
  value: valueSchema.required(),
  minimalStep: valueSchema,
  guarantee: guaranteeSchema(),
})
  .label('Lot')
  .fork(['title'], (s) => s.required());

/** `PATCH /tenders/{id}/lots/{lot_id}`: the same members, none required, the id fixed. */
export const lotPatchSchema = lotSchema.fork(['title', 'value'], (s) => s.optional()).keys({ id: Joi.forbidden() });

const featureSchema = Joi.object<Feature, true>({
  code: text().required(),
  featureOf: Joi.string().valid('tenderer', 'lot', 'item').required(),
  relatedItem: text(),
  ...translated('title'),
  ...translated('description'),
  enum: list(
    'featureEnum',
    Joi.object<FeatureValue, true>({ value: float().min(0).max(0.3).required(), ...translated('title'), ...translated('description') })
      .label('FeatureValue')
      .fork(['title'], (s) => s.required()),
  )
    .min(1)
    .required(),
})
  .label('Feature')
  .fork(['title'], (s) => s.required());

const uniqueById = (name: 'items' | 'lots', schema: Joi.ObjectSchema) => list(name, schema).unique('id', { ignoreUndefined: true });

/** What every tender request may give, whatever the procedure; the server sets the rest. */
export type TenderRequest = Pick<
  Tender,
  | 'procurementMethodDetails'
  | keyof Translated<'title'>
  | keyof Translated<'description'>
  | 'mainProcurementCategory'
  | 'procuringEntity'
  | 'value'
  | 'minimalStep'
  | 'guarantee'
  | 'items'
  | 'lots'
  | 'features'
  | 'milestones'
  | 'funders'
  | 'procurementMethod'
  | keyof Translated<'procurementMethodRationale'>
  | 'submissionMethod'
  | keyof Translated<'submissionMethodDetails'>
  | 'awardCriteria'
  | 'tenderPeriod'
>;

/** What creation alone takes. */
type CreateRequest = TenderRequest & Pick<Tender, 'plans' | 'procurementMethodType' | 'status' | 'mode'>;

/** Members every tender request may carry, whatever the procedure. */
const tenderKeys = {
  // Sandbox only (`refuseSandboxDetails`): `quick, accelerator=N` divides every period by N.
  procurementMethodDetails: text(),
  ...translated('title'),
  ...translated('description'),
  mainProcurementCategory: Joi.string().valid('goods', 'services', 'works'),
  procuringEntity: procuringEntitySchema,
  value: valueSchema,
  minimalStep: valueSchema,
  guarantee: guaranteeSchema(),
  items: uniqueById('items', itemSchema).min(1),
  lots: uniqueById('lots', lotSchema),
  features: list('features', featureSchema),
  milestones: list('milestones', milestoneSchema),
  funders: list('funders', businessOrganizationSchema),
  procurementMethod: Joi.string().valid('open', 'selective', 'limited'),
  ...translated('procurementMethodRationale'),
  submissionMethod: Joi.string().valid('electronicAuction'),
  ...translated('submissionMethodDetails'),
  awardCriteria: Joi.string().valid('lowestCost', 'lifeCycleCost'),
  tenderPeriod: periodSchema,
};

export const agreementsSchema = list('agreements', model<{ id: string }>('AgreementUUID', { id: md5().required() })).min(1);
// Untyped: the request's period is partial, the stored one (EnquiryPeriod) whole.
export const enquiryPeriodSchema = Joi.object({ startDate: isoDate(), endDate: isoDate() }).label('Period');

const createKeys = {
  ...tenderKeys,
  // Set by creation only (`POST /plans/{id}/tenders`, docs/plans.md §Tenders); a PATCH naming it is a Rogue field.
  plans: list('plans', model<{ id: string }>('PlanRelation', { id: md5().required() })),
  procurementMethodType: Joi.string(),
  status: Joi.string().valid('draft'),
  mode: Joi.string().valid('test'),
};

const required = ['title', 'procuringEntity', 'value', 'items', 'tenderPeriod'];
const withEndDate = (s: Joi.Schema) => (s as Joi.ObjectSchema).keys({ endDate: isoDate().required() });

/**
 * A procedure's creation body: the shared members and its `own`, those it `requires` besides the shared ones, and
 * the periods whose `endDate` the client must give.
 */
export const createSchema = <Own extends object>(own: Joi.StrictSchemaMap<Own>, requires: string[], endDates: string[]) =>
  Joi.object<CreateRequest & Own, true>({ ...createKeys, ...own } as Joi.StrictSchemaMap<CreateRequest & Own>)
    .fork([...required, ...requires], (s) => s.required())
    .fork(endDates, (s) => withEndDate(s).required());

/** Its PATCH body: the same members, all optional; `status` may name the procedure's activation state (docs/tenders.md §Activation). */
export const patchSchema = <Own extends object>(own: Joi.StrictSchemaMap<Own>, active: string) =>
  Joi.object<TenderRequest & Own & Pick<Tender, 'status'>, true>({
    ...tenderKeys,
    ...own,
    status: Joi.string().valid('draft', active),
  } as Joi.StrictSchemaMap<TenderRequest & Own & Pick<Tender, 'status'>>);
