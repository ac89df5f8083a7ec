import Joi from 'joi';

/** PATCH /qualifications/{id} `data` (`PatchQualification`). */
export const patchQualificationSchema = Joi.object({
  status: Joi.string().valid('pending', 'active', 'unsuccessful'),
});
