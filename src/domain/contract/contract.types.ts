import type { OwnerSecrets } from '../../security/tokens';
import type { ObjectDoc } from '../core/object-doc';
import type { BusinessOrganization, ContractedItem, Document, Period, ProcuringEntity, SignerInfo, Translated } from '../core/shapes';

export type ContractStatus = 'pending' | 'active' | 'terminated' | 'cancelled';

/** A contract's value: the award's, its `amountNet` within 20% of the amount with VAT (contract.rules.ts). */
export interface ContractValue {
  amount?: number;
  amountNet?: number;
  currency?: string;
  valueAddedTaxIncluded?: boolean;
}

/**
 * A change of a contract (docs/contracts.md §Contract changes): proposed `pending` by the owner, applied `active` with its
 * `dateSigned`; changes the contracting system brings with a new contract carry no status.
 */
export type ContractChange = Translated<'rationale'> & {
  id: string;
  rationale: string;
  rationaleTypes: string[];
  contractNumber?: string;
  status?: 'pending' | 'active';
  date: string;
  dateSigned?: string;
};

/** A contract's buyer, procuring entity or supplier, with the person who signs for it. */
export type ContractBuyer = ProcuringEntity & { signerInfo?: SignerInfo };
export type ContractSupplier = BusinessOrganization & { signerInfo?: SignerInfo };

/** A contracted item: the tender's item as the winning bid priced and answered it (docs/tenders.md §Contracts of a tender). */
export type ContractItem = ContractedItem;

/** A contract's `data` (spec: Contract), made by the contracting system or from a tender's active award. */
export type Contract = Translated<'title'> &
  Translated<'description'> & {
    id: string;
    /** `{tenderID}-a{n}`, numbered per tender (contract.lifecycle.ts `nextContractID`). */
    contractID: string;
    tender_id: string;
    /** Set when the contract comes from the tender's award (docs/contracts.md §Contracts from awards). */
    awardID?: string;
    status: ContractStatus;
    mode?: 'test';
    contractNumber?: string;
    period?: Period;
    value?: ContractValue;
    dateSigned?: string;
    changes?: ContractChange[];
    /** Allowed `rationaleTypes` where a contract carries its own (their keys); else `CONTRACT_CHANGE_RATIONALE_TYPES`. */
    contractChangeRationaleTypes?: Record<string, unknown>;
    items?: ContractItem[];
    suppliers: ContractSupplier[];
    procuringEntity?: ContractBuyer;
    buyer?: ContractBuyer;
    /** The tender's and its lot's milestones, for a contract of an award. */
    milestones?: Record<string, unknown>[];
    documents?: Document[];
    owner: string;
    dateCreated: string;
    dateModified: string;
  };

/** What a contract keeps beside `data`, never shown. */
export interface ContractHidden {
  /** The hash of the tender's token the contract was made with, once it has credentials of its own (contract-credentials.ts). */
  tenderTokenHash?: string;
  /** The winning bid's owner and token hashes: who names the supplier's signer (contract-signer-info.ts). */
  supplierAccess?: { data: { owner: string }; secrets?: OwnerSecrets };
}

export type ContractDoc = ObjectDoc<Contract, { restricted?: boolean }, ContractHidden>;
