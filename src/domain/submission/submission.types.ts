import type { ObjectDoc } from '../core/object-doc';
import type { BusinessOrganization, Document } from '../core/shapes';

export type SubmissionStatus = 'draft' | 'active' | 'deleted' | 'complete';

/** A submission's `data` (spec: Submission). */
export interface Submission {
  id: string;
  frameworkID: string;
  status: SubmissionStatus;
  submissionType: string;
  mode?: 'test';
  tenderers: BusinessOrganization[];
  owner: string;
  date: string;
  dateModified: string;
  /** Set on activation, with its qualification. */
  datePublished?: string;
  qualificationID?: string;
  documents?: Document[];
}

/** What a submission keeps beside `data`: its framework's owner, who reads it whole, and its creation date. */
export interface SubmissionHidden {
  links?: { frameworkOwner?: string };
  dateCreated?: string;
}

export type SubmissionDoc = ObjectDoc<Submission, { restricted?: boolean }, SubmissionHidden>;
