import type Joi from 'joi';
import type { FrameworkDoc } from '../framework.types';

/** A rule of a framework operation: throws the reference's error when the framework breaks it. */
export type FrameworkRule = (after: FrameworkDoc, before: FrameworkDoc | null, now: Date) => void;

/** One framework type: data plus named rules (docs/architecture.md §Procedures as data). */
export interface FrameworkProcedure {
  type: string;
  /** Accreditation levels of which a creating broker needs one. */
  accreditation: { create: string[] };
  schemas: { create: Joi.Schema; patchDraft: Joi.Schema; patchActive: Joi.Schema; config: Joi.Schema };
  rules: { create: FrameworkRule[]; patch: FrameworkRule[]; activate: FrameworkRule[] };
  minSubmissions: number;
}
