import type { Doc } from '../domain/core/object-doc';
import { ocidOf, releaseIdOf } from './ocds-option';
import { Parties } from './parties';
import { contractOf } from './tender-release';
import { prune } from './prune';

/**
 * The release of a contract object (docs/ocds.md §Contracts): it belongs to its tender's contracting process (the
 * tender's ocid, with the lot its items name), so compiling the tender's and the contract's releases merges the
 * contract into the award it came from.
 */
export function contractRelease(contract: Doc): Doc {
  const parties = new Parties();
  const buyer = parties.add(contract.buyer, 'buyer', 'buyer');
  (contract.suppliers ?? []).forEach((org: Doc, n: number) =>
    parties.add(org, 'supplier', n ? `${contract.awardID}-${n}` : contract.awardID),
  );
  const lotId: string | undefined = (contract.items ?? []).find((item: Doc) => item.relatedLot)?.relatedLot;
  return prune({
    ocid: ocidOf(contract.tender_id, lotId),
    id: releaseIdOf(contract.id, contract.dateModified),
    date: contract.dateModified,
    tag: tagsOf(contract),
    initiationType: 'tender',
    parties: parties.list(),
    buyer,
    contracts: [contractOf(contract)],
  });
}

function tagsOf(contract: Doc): string[] {
  return [
    'contract',
    ...((contract.changes ?? []).some((change: Doc) => change.status === 'active') ? ['contractAmendment'] : []),
    ...(contract.status === 'terminated' ? ['contractTermination'] : []),
  ];
}
