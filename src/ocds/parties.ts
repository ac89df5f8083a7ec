import { HIDDEN_TEXT } from '../masking/mask';
import { partOf, partsOf, uriOf, type OcdsObject, type ViewPart } from './parts';

/** OCDS `OrganizationReference`. */
export type OrganizationReference = { id: string; name: unknown };
/** OCDS `Organization` of the release's parties, with the roles it plays. */
type Party = OcdsObject & { roles: string[] };

/**
 * The release's `parties`: every organisation the view names, once each, with every role it plays
 * (docs/ocds.md §Parties). An organisation is named `<scheme> <id>` by its identifier, as the reference names
 * the procuring entity; one whose identifier the view hides is named by `fallback` (its bid, award or
 * contract), so hidden organisations are never merged into one.
 */
export class Parties {
  private readonly byId = new Map<string, Party>();

  /** Adds `org` in `role` and answers its OCDS `OrganizationReference`. */
  add(org: ViewPart | undefined, role: string, fallback: string): OrganizationReference | undefined {
    if (!org) return undefined;
    const identifier = partOf(org.identifier) ?? {};
    const hidden = !identifier.id || identifier.id === HIDDEN_TEXT || !identifier.scheme;
    const id = hidden ? fallback : `${String(identifier.scheme)} ${String(identifier.id)}`;
    const party = this.byId.get(id) ?? this.remember(id, org);
    if (!party.roles.includes(role)) party.roles.push(role);
    return { id, name: org.name };
  }

  list(): OcdsObject[] {
    return [...this.byId.values()];
  }

  private remember(id: string, org: ViewPart): Party {
    const identifier = partOf(org.identifier) ?? {};
    const contact = partOf(org.contactPoint);
    const address = partOf(org.address);
    const party: Party = {
      id,
      name: org.name,
      identifier: { scheme: identifier.scheme, id: identifier.id, legalName: identifier.legalName, uri: uriOf(identifier.uri) },
      additionalIdentifiers: partsOf(org.additionalIdentifiers).map((i) => ({ scheme: i.scheme, id: i.id, legalName: i.legalName })),
      address: address && {
        streetAddress: address.streetAddress,
        locality: address.locality,
        region: address.region,
        postalCode: address.postalCode,
        countryName: address.countryName,
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
