import type { Invoice } from "../invoices/schemas";
import { EU_MEMBER_STATES } from "../lib/countries";
import { el, type XmlNode } from "../lib/xml";
import { FACTURAE_DIR3_ROLES, facturaeCountryOf, spanishProvinceOf } from "./mappings";
import { customerDir3 } from "./snapshot";

/**
 * Facturae's `Parties` (SellerParty from the invoice's issuer snapshot, BuyerParty from its
 * customer snapshot), and what they lack for it.
 */

type Address = NonNullable<Invoice["issuer"]["address"]>;
type Party = { name: string; tax_id: { country: string; value: string } | null; address: Address | null };

/** At most `max` characters (code points, as the XSD counts them): Facturae's limits are shorter than the API's. */
export const clip = (s: string, max: number) => Array.from(s).slice(0, max).join("");

/** What the parties lack for Facturae, in words for an API user. */
export function missingPartyData(invoice: Invoice): string[] {
  const missing: string[] = [];
  const party = (who: string, p: Party | null) => {
    if (!p) return;
    if (!p.tax_id) missing.push(`the ${who}'s Tax ID`);
    if (!p.address) missing.push(`the ${who}'s address`);
    else if (facturaeCountryOf(p.address.country) === null) {
      missing.push(
        `a country Facturae lists in the ${who}'s address (${p.address.country} has no CountryType code)`,
      );
    }
  };
  party("issuer", invoice.issuer);
  if (!invoice.customer) missing.push("a customer (Facturae names the buyer, BuyerParty, on every invoice)");
  party("customer", invoice.customer);
  return missing;
}

/** A Spanish NIF's holder: an individual (DNI digits, NIE X/Y/Z, K/L/M) or an entity (letters). */
const individual = (nif: string) => /^[0-9KLMXYZ]/.test(nif);

/**
 * TaxIdentification: ResidenceTypeCode from the Tax ID's country (R Spain, U another EU member
 * state, E elsewhere); a resident's number without an "ES" prefix; PersonTypeCode F for a
 * Spanish NIF of an individual, J otherwise (a foreign Tax ID says nothing of its holder, and
 * this service's customers are mostly businesses).
 */
export function taxIdentification(p: Party) {
  const { country, value } = p.tax_id!;
  const residence = country === "ES" ? "R" : EU_MEMBER_STATES.has(country) ? "U" : "E";
  const number = residence === "R" && /^ES[0-9A-Z]{9}$/.test(value) ? value.slice(2) : value;
  const person = residence === "R" && individual(number) ? "F" : "J";
  return { person, residence, number };
}

const taxIdXml = (p: Party) => {
  const t = taxIdentification(p);
  return el("TaxIdentification", [
    el("PersonTypeCode", t.person),
    el("ResidenceTypeCode", t.residence),
    el("TaxIdentificationNumber", clip(t.number, 30)),
  ]);
};

/**
 * AddressInSpain for a Spanish address with a 5-digit postal code (its province, when the address
 * has no state, from the code's first two digits), OverseasAddress otherwise.
 */
function address(a: Address): string {
  const street = clip(a.line_2 ? `${a.line_1}, ${a.line_2}` : a.line_1, 80);
  if (a.country === "ES" && /^\d{5}$/.test(a.postal_code)) {
    return el("AddressInSpain", [
      el("Address", street),
      el("PostCode", a.postal_code),
      el("Town", clip(a.city, 50)),
      el("Province", clip(a.state ?? spanishProvinceOf(a.postal_code) ?? a.city, 20)),
      el("CountryCode", "ESP"),
    ]);
  }
  return el("OverseasAddress", [
    el("Address", street),
    el("PostCodeAndTown", clip(`${a.postal_code} ${a.city}`, 50)),
    el("Province", clip(a.state ?? a.city, 20)),
    el("CountryCode", facturaeCountryOf(a.country)),
  ]);
}

/**
 * Always a LegalEntity with the name as CorporateName: the API keeps one name, and Individual
 * wants it split into name and surnames, which cannot be done reliably.
 */
const legalEntity = (p: Party, contact?: XmlNode) =>
  el("LegalEntity", [el("CorporateName", clip(p.name, 80)), address(p.address!), contact]);

/** A public body's DIR3 units (FACe), each at the customer's address. */
function centres(invoice: Invoice): string | null {
  const dir3 = customerDir3(invoice);
  const customer = invoice.customer!;
  if (!dir3) return null;
  return el(
    "AdministrativeCentres",
    FACTURAE_DIR3_ROLES.map(({ field, role, name }) =>
      dir3[field]
        ? el("AdministrativeCentre", [
            el("CentreCode", dir3[field]),
            el("RoleTypeCode", role),
            address(customer.address!),
            el("CentreDescription", name),
          ])
        : null,
    ),
  );
}

/** `Parties`, for an invoice `missingPartyData` finds nothing missing in. */
export function partiesXml(invoice: Invoice): string {
  const customer = invoice.customer!;
  // Contact data that does not fit Facturae's fields is left out rather than cut.
  const contact = el("ContactDetails", [
    customer.phone && customer.phone.length <= 15 ? el("Telephone", customer.phone) : null,
    customer.email && customer.email.length <= 60 ? el("ElectronicMail", customer.email) : null,
  ]);
  return el("Parties", [
    el("SellerParty", [taxIdXml(invoice.issuer), legalEntity(invoice.issuer)]),
    el("BuyerParty", [taxIdXml(customer), centres(invoice), legalEntity(customer, contact)]),
  ]);
}
