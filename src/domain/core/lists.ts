import Joi from 'joi';

/**
 * Upper bounds of the lists a client may send (docs/platform.md §Limits). The reference sets none;
 * these are far above any real procurement and keep validation work and error lists bounded.
 */
export const LIST_LIMITS = {
  items: 1000,
  documents: 1000,
  // A tender's bids as the auction module lists them.
  bids: 1000,
  lots: 100,
  // The spec: a competitive ordering tender names exactly one agreement.
  agreements: 1,
  features: 100,
  featureEnum: 100,
  milestones: 100,
  criteria: 100,
  requirementGroups: 100,
  requirements: 100,
  eligibleEvidences: 100,
  // A bid answers every requirement of one group per criterion: at most 100 criteria, 100 requirements each.
  requirementResponses: 1000,
  evidences: 100,
  // A contract item's answers to its criteria (docs/tenders.md §Contracts of a tender), bounded as the responses.
  attributes: 1000,
  values: 100,
  legislation: 100,
  tenderers: 100,
  suppliers: 100,
  funders: 100,
  plans: 100,
  breakdown: 100,
  // A plan names exactly one buyer (the reference's `buyers` max_size).
  buyers: 1,
  changes: 100,
  rationaleTypes: 100,
  additionalIdentifiers: 100,
  additionalContactPoints: 100,
  additionalClassifications: 100,
  // A complaint's objections and their parts (docs/tenders.md §Complaints).
  objections: 100,
  arguments: 100,
  requestedRemedies: 100,
} as const;

/**
 * joi checks a list's elements before its `max` rule (the `items` rule has priority), so 300,000
 * elements cost 300,000 element checks and as many errors before `Please provide no more than N
 * items.` This array type refuses an over-long list first, without looking at its elements.
 */
const bounded = Joi.extend((joi: Joi.Root) => ({
  type: 'array',
  base: joi.array(),
  validate(value: unknown, helpers: Joi.CustomHelpers) {
    const limit: unknown = helpers.schema.$_getRule('max')?.args?.limit;
    if (Array.isArray(value) && typeof limit === 'number' && value.length > limit) {
      return { value, errors: [helpers.error('array.max', { limit })] };
    }
    return { value };
  },
})) as Pick<Joi.Root, 'array'>;

/** A list of `item` with at most `LIST_LIMITS[name]` elements, checked before the elements are. */
export const list = (name: keyof typeof LIST_LIMITS, item: Joi.Schema): Joi.ArraySchema =>
  bounded.array().items(item).max(LIST_LIMITS[name]);
