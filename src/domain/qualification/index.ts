export { qualificationDerivative } from './qualification.access';
export { newQualification } from './qualification.lifecycle';
