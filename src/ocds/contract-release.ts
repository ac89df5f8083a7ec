import { ocidOf, releaseIdOf } from './ocds-option';
import { Parties } from './parties';
import { partOf, partsOf, type OcdsObject, type ViewPart } from './parts';
import { contractOf } from './tender-release';
import { prune } from './prune';

/**
 * The release of a contract object (docs/ocds.md §Contracts): it belongs to its tender's contracting process (the
 * tender's ocid, with the lot its items name), so compiling the tender's and the contract's releases merges the
 * contract into the award it came from.
 */
export function contractRelease(contract: ViewPart): OcdsObject {
  const parties = new Parties();
  const buyer = parties.add(partOf(contract.buyer), 'buyer', 'buyer');
  // The contract's own members, which no hiding touches (docs/masking.md §Contract).
  const {
    id,
    tender_id: tenderId,
    awardID,
    dateModified,
  } = contract as { id: string; tender_id: string; awardID: string; dateModified: string };
  partsOf(contract.suppliers).forEach((org, n) => parties.add(org, 'supplier', n ? `${awardID}-${n}` : awardID));
  const lotId = partsOf(contract.items).find((item) => item.relatedLot)?.relatedLot as string | undefined;
  return prune({
    ocid: ocidOf(tenderId, lotId),
    id: releaseIdOf(id, dateModified),
    date: dateModified,
    tag: tagsOf(contract),
    initiationType: 'tender',
    parties: parties.list(),
    buyer,
    contracts: [contractOf(contract)],
  });
}

function tagsOf(contract: ViewPart): string[] {
  return [
    'contract',
    ...(partsOf(contract.changes).some((change) => change.status === 'active') ? ['contractAmendment'] : []),
    ...(contract.status === 'terminated' ? ['contractTermination'] : []),
  ];
}
