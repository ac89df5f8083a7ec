import Joi from 'joi';
import type { Qualification } from './qualification.types';

/** PATCH /qualifications/{id} `data` (`PatchQualification`). */
export const patchQualificationSchema = Joi.object<Pick<Qualification, 'status'>, true>({
  status: Joi.string().valid('pending', 'active', 'unsuccessful'),
});
