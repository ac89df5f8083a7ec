import type { ObjectDoc } from '../core/object-doc';
import type { BusinessOrganization, Classification, Document, Period, ProcuringEntity } from '../core/shapes';

/** A contract's milestone (docs/frameworks.md §Agreement contracts and milestones). */
export interface Milestone {
  id: string;
  type: 'activation' | 'ban';
  status: 'scheduled' | 'met' | 'notMet' | 'partiallyMet';
  description?: string;
  documents?: Document[];
  dueDate: string;
  dateModified: string;
  dateMet?: string;
}

/** A supplier's contract in an agreement, one per activated qualification. */
export interface AgreementContract {
  id: string;
  qualificationID: string;
  submissionID: string;
  status: 'active' | 'suspended' | 'terminated';
  suppliers: BusinessOrganization[];
  milestones: Milestone[];
  date: string;
  dateModified: string;
}

/** An agreement's `data` (spec: Agreement). */
export interface Agreement {
  id: string;
  /** Numbered by the commit that creates the agreement (agreement.lifecycle.ts `agreementNumbering`). */
  agreementID: string;
  frameworkID: string;
  agreementType: string;
  status: 'active' | 'terminated';
  terminationDetails?: string;
  period: Required<Period>;
  procuringEntity: ProcuringEntity;
  classification: Classification;
  additionalClassifications?: Classification[];
  items?: Record<string, unknown>[];
  contracts: AgreementContract[];
  mode?: 'test';
  owner: string;
  date: string;
  dateCreated: string;
  dateModified: string;
  next_check?: string;
  documents?: Document[];
}

export type AgreementDoc = ObjectDoc<Agreement, { restricted?: boolean }, object>;
