export { tenderContractLink } from './contracts/contract-signing';
export { isFinal } from './procedure';
export { TENDER_PROCEDURES } from './procedures';
export { createTender, procedureOfStored, type TenderRequest } from './tender.lifecycle';
