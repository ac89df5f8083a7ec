export { submissionDerivative } from './submission.access';
export { activatedSubmissionIds } from './submission.lifecycle';
