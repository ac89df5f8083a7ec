import type { ObjectDoc } from '../core/object-doc';
import type { Document } from '../core/shapes';

export type QualificationStatus = 'pending' | 'active' | 'unsuccessful';

/** A qualification's `data` (spec: Qualification). */
export interface Qualification {
  id: string;
  frameworkID: string;
  submissionID: string;
  qualificationType: string;
  status: QualificationStatus;
  mode?: 'test';
  date: string;
  dateModified: string;
  documents?: Document[];
}

export interface QualificationConfig {
  restricted?: boolean;
  qualificationComplainDuration?: number;
}

/** What a qualification keeps beside `data`: the owners who read it whole, and its creation date. */
export interface QualificationHidden {
  links?: { frameworkOwner?: string; submissionOwner?: string };
  dateCreated?: string;
}

export type QualificationDoc = ObjectDoc<Qualification, QualificationConfig, QualificationHidden>;
