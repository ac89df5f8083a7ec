import Joi from 'joi';
import { translated } from '../../core/organization.schema';
import type { Translated } from '../../core/shapes';
import type { Award } from '../tender.types';

/** What an owner's PATCH of an award may carry. */
export type AwardPatch = Partial<
  Pick<Award, 'status' | 'qualified' | 'eligible' | keyof Translated<'title'> | keyof Translated<'description'>>
>;

/** The members an owner may change in a pending award (spec-era `PatchAward`), without `eligible`. */
const members = {
  status: Joi.string().valid('pending', 'unsuccessful', 'active', 'cancelled'),
  qualified: Joi.boolean(),
  ...translated('title'),
  ...translated('description'),
};

/** belowThreshold `PatchAward`: a decision with `qualified`. */
export const patchAward = Joi.object<Omit<AwardPatch, 'eligible'>, true>(members).label('PatchAward');

/** competitiveOrdering `PatchAward`: a decision with `qualified` and `eligible`. */
export const patchEligibleAward = Joi.object<AwardPatch, true>({ ...members, eligible: Joi.boolean() }).label('PatchAward');
