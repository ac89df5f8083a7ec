import type { BusinessOrganization } from '../core/shapes';

/** A framework's question (spec: Shared structures, Question); the server sets its dates. */
export interface Question {
  id: string;
  title: string;
  description?: string;
  author: BusinessOrganization;
  date: string;
  answer?: string;
  dateAnswered?: string;
}
