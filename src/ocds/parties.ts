import type { Doc } from '../domain/core/object-doc';
import { HIDDEN_TEXT } from '../masking/mask';
import { uriOf } from './parts';

/**
 * The release's `parties`: every organisation the view names, once each, with every role it plays
 * (docs/ocds.md §Parties). An organisation is named `<scheme> <id>` by its identifier, as the reference names
 * the procuring entity; one whose identifier the view hides is named by `fallback` (its bid, award or
 * contract), so hidden organisations are never merged into one.
 */
export class Parties {
  private readonly byId = new Map<string, Doc>();

  /** Adds `org` in `role` and answers its OCDS `OrganizationReference`. */
  add(org: Doc | undefined, role: string, fallback: string): Doc | undefined {
    if (!org) return undefined;
    const identifier: Doc = org.identifier ?? {};
    const hidden = !identifier.id || identifier.id === HIDDEN_TEXT || !identifier.scheme;
    const id = hidden ? fallback : `${identifier.scheme} ${identifier.id}`;
    const party = this.byId.get(id) ?? this.remember(id, org);
    if (!party.roles.includes(role)) party.roles.push(role);
    return { id, name: org.name };
  }

  list(): Doc[] {
    return [...this.byId.values()];
  }

  private remember(id: string, org: Doc): Doc {
    const identifier: Doc = org.identifier ?? {};
    const contact: Doc | undefined = org.contactPoint;
    const party: Doc = {
      id,
      name: org.name,
      identifier: { scheme: identifier.scheme, id: identifier.id, legalName: identifier.legalName, uri: uriOf(identifier.uri) },
      additionalIdentifiers: (org.additionalIdentifiers ?? []).map((i: Doc) => ({ scheme: i.scheme, id: i.id, legalName: i.legalName })),
      address: org.address && {
        streetAddress: org.address.streetAddress,
        locality: org.address.locality,
        region: org.address.region,
        postalCode: org.address.postalCode,
        countryName: org.address.countryName,
      },
      contactPoint: contact && {
        name: contact.name,
        email: contact.email,
        telephone: contact.telephone,
        faxNumber: contact.faxNumber,
        url: uriOf(contact.url),
      },
      roles: [],
    };
    this.byId.set(id, party);
    return party;
  }
}
