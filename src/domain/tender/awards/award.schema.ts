import Joi from 'joi';

const text = () => Joi.string().min(1);
const translated = (name: string) => ({ [name]: text(), [`${name}_en`]: text(), [`${name}_ru`]: text() });

/** The members an owner may change in a pending award (spec-era `PatchAward`), without `eligible`. */
const members = {
  status: Joi.string().valid('pending', 'unsuccessful', 'active', 'cancelled'),
  qualified: Joi.boolean(),
  ...translated('title'),
  ...translated('description'),
};

/** belowThreshold `PatchAward`: a decision with `qualified`. */
export const patchAward = Joi.object(members).label('PatchAward');

/** competitiveOrdering `PatchAward`: a decision with `qualified` and `eligible`. */
export const patchEligibleAward = Joi.object({ ...members, eligible: Joi.boolean() }).label('PatchAward');
