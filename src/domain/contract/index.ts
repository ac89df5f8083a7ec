export type { ContractDoc } from './contract-signer-info';
export { nextContractID, type TenderLink } from './contract.lifecycle';
