import type { ObjectDoc } from '../core/object-doc';
import type {
  Address,
  Classification,
  ContactPoint,
  Document,
  Identifier,
  Period,
  ProcuringEntityKind,
  SignerInfo,
  Translated,
} from '../core/shapes';

export type PlanStatus = 'draft' | 'scheduled' | 'cancelled' | 'complete';

/** `PlanOrganization` (docs/plans.md §Organizations): the server gives its `id`; `address` and `kind` are required by date. */
export type PlanOrganization = Translated<'name'> & {
  id: string;
  name: string;
  identifier: Identifier;
  address?: Address;
  kind?: ProcuringEntityKind;
};

/** A plan's procuring entity (`ProcuringEntity`): an organization that may name its signer (docs/plans.md §Fields). */
export type PlanProcuringEntity = PlanOrganization & { signerInfo?: SignerInfo };

/** A plan's buyer (`BuyerOrganization`): a procuring entity with a contact point. */
export type PlanBuyer = PlanProcuringEntity & { contactPoint?: ContactPoint };

/** The project a plan is part of (HEAD's plan-level `Project`, docs/plans.md §Fields). */
export interface PlanProject {
  id?: string;
  title: string;
  uri: string;
}

/** A plan's classifications carry a translated description. */
export type PlanClassification = Classification & Translated<'description'>;

/** What the plan says of the tender to come (docs/plans.md §Procedures); the server fills both methods with `''`. */
export interface PlanTender {
  procurementMethod: string;
  procurementMethodType: string;
  tenderPeriod: Period;
}

export type BreakdownTitle = 'state' | 'crimea' | 'local' | 'own' | 'fund' | 'loan' | 'other';

/** A budget breakdown member (docs/plans.md §Budget): an `other` one describes itself. */
export type BudgetBreakdown = Translated<'description'> & {
  id: string;
  title: BreakdownTitle;
  value: { amount: number; currency?: string };
};

/** A plan's budget (docs/plans.md §Budget): `period` or `year` by date, the currency `UAH` unless given. */
export type Budget = Translated<'description'> & {
  id: string;
  description: string;
  amount: number;
  currency: string;
  amountNet?: number;
  project?: Translated<'name'> & { id: string; name: string };
  period?: Required<Period>;
  year?: number;
  notes?: string;
  breakdown?: BudgetBreakdown[];
};

/** A unit of an item and its price. */
export interface PlanUnit {
  name?: string;
  code: string;
  value?: { amount: number; currency?: string; valueAddedTaxIncluded?: boolean };
}

/** A plan's item (docs/plans.md §Items). */
export type PlanItem = Translated<'description'> & {
  id: string;
  description: string;
  classification: PlanClassification;
  additionalClassifications?: PlanClassification[];
  unit?: PlanUnit;
  quantity?: number;
  deliveryAddress?: Address;
  deliveryDate?: Period;
  profile?: string;
};

/** A plan's cancellation: an active one cancels the plan (docs/plans.md §Statuses). */
export type PlanCancellation = Translated<'reason'> & {
  id: string;
  reason: string;
  status: 'pending' | 'active';
  date: string;
};

/** Why the plan is as it is; `date` is when the description last changed (docs/plans.md §Fields). */
export interface Rationale {
  description: string;
  date: string;
}

export type PlanMilestoneStatus = 'scheduled' | 'met' | 'notMet' | 'invalid';

/** An approval milestone (docs/plans.md §Milestones), owned by the broker that added it. */
export interface PlanMilestone {
  id: string;
  title: string;
  description: string;
  type: 'approval';
  status: PlanMilestoneStatus;
  dueDate: string;
  author: PlanOrganization;
  owner: string;
  dateModified: string;
  dateMet?: string;
}

/** The members a client gives of a plan (`PostPlan`, `PatchPlan`); the server keeps the rest (`PlanServerKey`). */
export type PlanBody = {
  status: PlanStatus;
  procuringEntity: PlanProcuringEntity;
  tender: PlanTender;
  budget?: Budget;
  classification: PlanClassification;
  additionalClassifications?: PlanClassification[];
  tender_id?: string;
  mode?: 'test';
  items?: PlanItem[];
  buyers?: PlanBuyer[];
  cancellation?: PlanCancellation;
  rationale?: Rationale;
  project?: PlanProject;
};

/** A plan's client members as joi leaves a request: `status` and the tender's methods may be left out. */
export type PlanRequest = Omit<PlanBody, 'status' | 'tender' | 'cancellation'> & {
  status?: PlanStatus;
  tender: Partial<PlanTender> & Pick<PlanTender, 'tenderPeriod'>;
  cancellation?: Omit<PlanCancellation, 'status'> & Partial<Pick<PlanCancellation, 'status'>>;
};

/** A request with the server's members filled (plan.lifecycle.ts), as the rules check it; `status` still the client's. */
export type PlanChecked = Omit<PlanBody, 'status'> & { status?: PlanStatus };

/** A plan's `data` (spec: Plan): the client's members and the server's. */
export type Plan = PlanBody & {
  id: string;
  planID: string;
  owner: string;
  datePublished: string;
  dateCreated: string;
  dateModified: string;
  documents?: Document[];
  milestones?: PlanMilestone[];
};

/** What a plan keeps beside `data`, never shown: each milestone's owner-token hash, by milestone id. */
export interface PlanHidden {
  milestoneTokens?: Record<string, string>;
}

export type PlanDoc = ObjectDoc<Plan, object, PlanHidden>;
