export type { ContractDoc } from './contract.types';
export { nextContractID, type TenderLink } from './contract.lifecycle';
