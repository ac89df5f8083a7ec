export { withAgreementNextCheck } from './agreement.events';
export { agreementNumbering, newAgreement, withContract } from './agreement.lifecycle';
