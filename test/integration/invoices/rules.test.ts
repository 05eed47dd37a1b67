/**
 * invoices.md, "The issuer" and "Rules from the seed": the Spanish address rule, the
 * simplified-invoice limit, the issuer profile, snapshots, the prefix lock, the delete rule,
 * payment terms, and the date rules of issuance.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { beforeBatches, countRows } from "../../helpers/db";
import { createAccount, createCustomer, createInstruction } from "../../helpers/factories";
import {
  customerWithAddress,
  esAddress,
  esIssuer,
  esProfile,
  getInvoice,
  type Invoice,
  issue,
  ivaLine,
  setProfile,
  workedLine,
} from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { expectError } from "../../helpers/security";
import type { Customer, PaymentInstruction } from "../../helpers/types";

/** A customer with a Tax ID and no address. */
async function customerWithoutAddress(api: ApiClient): Promise<Customer> {
  return createCustomer(api, { name: "Sin Dirección SL" });
}

const option = (pmi: PaymentInstruction, reference: string) => ({
  payment_instruction: pmi.id,
  type: "bank_transfer",
  bank_transfer: {
    beneficiary: pmi.bank_transfer.beneficiary,
    iban: pmi.bank_transfer.iban,
    bic: pmi.bank_transfer.bic,
  },
  reference,
});

const secondInstruction = {
  label: "Second bank",
  bank_transfer: { beneficiary: "Emisora Ejemplo SL", iban: "ES7921000813610123456789", bic: null },
};

describe("Spanish address rule: es ordinary and corrective invoices need the customer's address", () => {
  it("an es ordinary invoice to a customer without an address is 400 customer_address_required, param customer", async () => {
    const { api } = await esIssuer();
    const bare = await customerWithoutAddress(api);
    const res = await api.post("/v1/invoices", { customer: bare.id, lines: [ivaLine()] });
    expectError(res, 400, "customer_address_required", "customer");
    expect(res.body.error.message).toContain(bare.id);
  });

  it("an es corrective invoice whose customer has lost its address is 400 customer_address_required", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expectStatus(await api.patch(`/v1/customers/${customer.id}`, { address: null }), 200);
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "customer_address_required", "customer");
  });

  it("an es simplified invoice needs no address: to a customer without one, or to no customer", async () => {
    const { api } = await esIssuer();
    const bare = await customerWithoutAddress(api);
    const named = await issue(api, { type: "simplified", customer: bare.id, lines: [ivaLine()] });
    expect(named.customer).toEqual({
      id: bare.id,
      name: "Sin Dirección SL",
      tax_id: { id: bare.tax_id.id, country: "ES", type: "es_nif", value: "B12345674" },
      email: null,
      phone: null,
      address: null,
      einvoicing: { peppol_id: null, dir3: null },
    });
    const anonymous = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expect(anonymous.customer).toBeNull();
    const explicitNull = await issue(api, { type: "simplified", customer: null, lines: [ivaLine()] });
    expect(explicitNull.customer).toBeNull();
  });

  it("a global account may issue an ordinary invoice to a customer without an address", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    const bare = await customerWithoutAddress(api);
    const inv = await issue(api, { customer: bare.id, lines: [{ ...ivaLine(), taxes: [] }] });
    expect(inv.customer?.address).toBeNull();
  });

  it("an ordinary invoice needs a customer: 400 parameter_missing customer", async () => {
    const { api } = await esIssuer();
    for (const body of [{ lines: [ivaLine()] }, { customer: null, lines: [ivaLine()] }]) {
      expectError(await api.post("/v1/invoices", body), 400, "parameter_missing", "customer");
    }
  });
});

// The limit is an account setting (account.md; simplified-limit.test.ts covers the default,
// 400.00): here at 3000.00, the limit of art. 4.2 and of an AEAT authorisation.
async function issuer3000() {
  const setup = await esIssuer();
  const res = await setup.api.patch("/v1/account", {
    simplified_invoices: { limit: "3000.00", basis: "art_4_2" },
  });
  expectStatus(res, 200);
  return setup;
}

describe("Simplified es invoices total at most 3000.00 EUR under art_4_2", () => {
  it("a simplified invoice of exactly 3000.00 is issued", async () => {
    const { api } = await issuer3000();
    // 2479.34 + 21 % (520.6614 → 520.66) = 3000.00
    const inv = await issue(api, { type: "simplified", lines: [ivaLine("2479.34")] });
    expect(inv.total).toBe("3000.00");
    const exempt = await issue(api, { type: "simplified", lines: [ivaLine("3000", "exempt_art_20")] });
    expect(exempt.total).toBe("3000.00");
  });

  it("a simplified invoice of 3000.01 is 400 simplified_limit_exceeded and issues nothing", async () => {
    const { api } = await issuer3000();
    // 2479.35 + 21 % (520.6635 → 520.66) = 3000.01
    const res = await api.post("/v1/invoices", { type: "simplified", lines: [ivaLine("2479.35")] });
    expectError(res, 400, "simplified_limit_exceeded", "lines");
    const exempt = await api.post("/v1/invoices", {
      type: "simplified",
      lines: [ivaLine("3000.01", "exempt_art_20")],
    });
    expectError(exempt, 400, "simplified_limit_exceeded", "lines");
    const next = await issue(api, { type: "simplified", lines: [ivaLine("1")] });
    expect(next.number).toBe("SIM-0001");
  });

  it("the limit is on the total: IRPF withheld does not bring an over-limit invoice under it", async () => {
    const { api } = await issuer3000();
    // 2500.00 + 525.00 IVA = 3025.00 total (amount payable 2650.00 after 15 % IRPF).
    const res = await api.post("/v1/invoices", {
      type: "simplified",
      lines: [{ ...workedLine, quantity: "1", unit_price: "2500" }],
    });
    expectError(res, 400, "simplified_limit_exceeded", "lines");
  });

  it("the limit is Spanish: a global simplified invoice and an es ordinary invoice may exceed 3000.00", async () => {
    const { api, customer } = await esIssuer();
    const ordinary = await issue(api, { customer: customer.id, lines: [ivaLine("5000")] });
    expect(ordinary.total).toBe("6050.00");
    const global = client((await createAccount({ taxRegime: "global" })).testKey);
    const inv = await issue(global, { type: "simplified", lines: [{ ...ivaLine("5000"), taxes: [] }] });
    expect(inv.total).toBe("5000.00");
  });
});

describe("The issuer profile: an es account issues only with legal_name, tax_id and address", () => {
  it("an es account without a profile is 400 account_profile_incomplete, param account.legal_name", async () => {
    const account = await createAccount({ taxRegime: "es" });
    const api = client(account.testKey);
    const customer = await customerWithAddress(api);
    const res = await api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()] });
    expectError(res, 400, "account_profile_incomplete", "account.legal_name");
    // Simplified invoices too: the issuer is always identified.
    const simplified = await api.post("/v1/invoices", { type: "simplified", lines: [ivaLine()] });
    expectError(simplified, 400, "account_profile_incomplete", "account.legal_name");
  });

  it("param names the first missing field, in the order legal_name, tax_id, address", async () => {
    const account = await createAccount({ taxRegime: "es" });
    const api = client(account.testKey);
    const customer = await customerWithAddress(api);
    const attempt = () => api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()] });

    await setProfile(api, { tax_id: esProfile.tax_id, address: esProfile.address });
    expectError(await attempt(), 400, "account_profile_incomplete", "account.legal_name");
    await setProfile(api, { legal_name: esProfile.legal_name, tax_id: null });
    expectError(await attempt(), 400, "account_profile_incomplete", "account.tax_id");
    await setProfile(api, { tax_id: esProfile.tax_id, address: null });
    expectError(await attempt(), 400, "account_profile_incomplete", "account.address");
    await setProfile(api, { address: esProfile.address });
    const inv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    // No number was consumed by the rejected attempts.
    expect(inv.number).toBe("INV-0001");
  });

  it.each([
    ["a French VAT number", { country: "FR", type: "eu_vat", value: "FR40303265045" }],
    ["a local Tax ID", { country: "ES", type: "local", value: "B12345674" }],
  ])(
    "an es account whose tax_id is %s, not a Spanish NIF, is 400 account_profile_incomplete, param account.tax_id, and consumes no number",
    async (_, taxId) => {
      const { api, customer } = await esIssuer();
      await setProfile(api, { tax_id: taxId });
      const res = await api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()] });
      expectError(res, 400, "account_profile_incomplete", "account.tax_id");
      // An ES VAT number is the same NIF with its prefix: the account issues under it.
      await setProfile(api, { tax_id: { country: "ES", type: "eu_vat", value: "ESB12345674" } });
      const inv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
      expect(inv.number).toBe("INV-0001");
      expect(inv.verifactu?.status).toBe("pending");
    },
  );

  it("clearing legal_name with null makes an es account unable to issue again", async () => {
    const { api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    await setProfile(api, { legal_name: null });
    const res = await api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()] });
    expectError(res, 400, "account_profile_incomplete", "account.legal_name");
  });

  it("a global account issues with no profile at all: issuer tax_id and address null", async () => {
    const account = await createAccount({ taxRegime: "global", name: "Globex Ltd" });
    const api = client(account.testKey);
    const customer = await customerWithoutAddress(api);
    const inv = await issue(api, { customer: customer.id, lines: [{ ...ivaLine(), taxes: [] }] });
    expect(inv.issuer).toEqual({
      name: "Globex Ltd",
      tax_id: null,
      address: null,
      einvoicing: { peppol_id: null },
    });
  });

  it("a global account's profile, when set, is the issuer", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    await setProfile(api, {
      legal_name: "Globex Trading Ltd",
      tax_id: { country: "GB", type: "local", value: "GB-123" },
    });
    const customer = await customerWithoutAddress(api);
    const inv = await issue(api, { customer: customer.id, lines: [{ ...ivaLine(), taxes: [] }] });
    expect(inv.issuer).toEqual({
      name: "Globex Trading Ltd",
      tax_id: { country: "GB", type: "local", value: "GB123" },
      address: null,
      einvoicing: { peppol_id: null },
    });
  });

  it("the profile is per environment: a complete test profile does not serve live", async () => {
    const { account, api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const live = client(account.liveKey);
    const liveCustomer = await customerWithAddress(live);
    const res = await live.post("/v1/invoices", { customer: liveCustomer.id, lines: [ivaLine()] });
    expectError(res, 400, "account_profile_incomplete", "account.legal_name");
    // A live profile of its own is the live invoices' issuer; the test one is untouched.
    const ready = await readyLive(account, { ...esProfile, legal_name: "Emisora Live SL" });
    const liveInv = await issue(ready, { customer: liveCustomer.id, lines: [ivaLine()] });
    expect(liveInv.issuer.name).toBe("Emisora Live SL");
    const testInv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(testInv.issuer.name).toBe("Emisora Ejemplo SL");
  });
});

describe("Snapshots: later changes to the issuer, customer or instructions never change an issued invoice", () => {
  it("updating the issuer profile leaves issued invoices unchanged; new invoices take the new profile", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    await setProfile(api, {
      legal_name: "Nuevo Nombre SL",
      tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
      address: { line_1: "Otra Calle 9", city: "Sevilla", postal_code: "41001" },
    });
    expect(await getInvoice(api, inv.id)).toStrictEqual(inv);
    const next = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(next.issuer).toEqual({
      name: "Nuevo Nombre SL",
      tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
      address: {
        line_1: "Otra Calle 9",
        line_2: null,
        city: "Sevilla",
        postal_code: "41001",
        state: null,
        country: "ES",
      },
      einvoicing: { peppol_id: null },
    });
  });

  it("updating the customer (name, tax_id, email, phone, address) leaves issued invoices unchanged", async () => {
    const { api, customer } = await esIssuer({ email: "a@cliente.example" });
    const inv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const updated = await api.patch(`/v1/customers/${customer.id}`, {
      name: "Cliente Renombrado SA",
      tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
      email: "b@cliente.example",
      phone: "+34911111111",
      address: { line_1: "Calle Nueva 3", city: "Bilbao", postal_code: "48001" },
    });
    expectStatus(updated, 200);
    expect(await getInvoice(api, inv.id)).toStrictEqual(inv);
    expect(inv.customer).toEqual({
      id: customer.id,
      name: "Cliente Ejemplo SA",
      tax_id: { id: customer.tax_id.id, country: "ES", type: "es_nif", value: "A58818501" },
      email: "a@cliente.example",
      phone: null,
      address: { ...esAddress, line_2: null, state: null },
      einvoicing: { peppol_id: null, dir3: null },
    });
    const next = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(next.customer).toEqual({
      id: customer.id,
      name: "Cliente Renombrado SA",
      tax_id: { id: updated.body.tax_id.id, country: "ES", type: "es_nif", value: "B12345674" },
      email: "b@cliente.example",
      phone: "+34911111111",
      address: {
        line_1: "Calle Nueva 3",
        line_2: null,
        city: "Bilbao",
        postal_code: "48001",
        state: null,
        country: "ES",
      },
      einvoicing: { peppol_id: null, dir3: null },
    });
    expect(next.customer?.tax_id.id).not.toBe(customer.tax_id.id);
  });

  it("a delete attempt on the customer (409) leaves the invoice and the customer unchanged", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expectError(await api.del(`/v1/customers/${customer.id}`), 409, "resource_in_use");
    expect(await getInvoice(api, inv.id)).toStrictEqual(inv);
    const still = await api.get(`/v1/customers/${customer.id}`);
    expectStatus(still, 200);
    expect(still.body).toEqual(customer);
  });

  it("updating and then deleting a payment instruction leaves the invoice's options unchanged", async () => {
    const { api, customer } = await esIssuer();
    const pmi = await createInstruction(api);
    const inv = await issue(api, {
      customer: customer.id,
      lines: [ivaLine()],
      payment_terms: { options: [pmi.id] },
    });
    expect(inv.payment_terms.options).toEqual([option(pmi, "INV-0001")]);
    const patched = await api.patch(`/v1/payment-instructions/${pmi.id}`, {
      bank_transfer: { beneficiary: "Otro Beneficiario SL", iban: "ES7921000813610123456789", bic: null },
    });
    expectStatus(patched, 200);
    expect(await getInvoice(api, inv.id)).toStrictEqual(inv);
    expectStatus(await api.del(`/v1/payment-instructions/${pmi.id}`), 204);
    expect(await getInvoice(api, inv.id)).toStrictEqual(inv);
  });
});

describe("invoice_prefix is locked once any invoice names the customer: 409 invoice_prefix_locked", () => {
  it("before any invoice the prefix can change; after one, a new prefix is 409 invoice_prefix_locked", async () => {
    const { api, customer } = await esIssuer({ invoice_prefix: "ACME" });
    const before = await api.patch(`/v1/customers/${customer.id}`, { invoice_prefix: "ACME2" });
    expectStatus(before, 200);
    expect(before.body.invoice_prefix).toBe("ACME2");
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const after = await api.patch(`/v1/customers/${customer.id}`, { invoice_prefix: "NEWP" });
    expectError(after, 409, "invoice_prefix_locked", "invoice_prefix");
    const read = await api.get(`/v1/customers/${customer.id}`);
    expect(read.body.invoice_prefix).toBe("ACME2");
  });

  it("sending the same prefix again (in any case) is a 200 no-op, and other fields still change", async () => {
    const { api, customer } = await esIssuer({ invoice_prefix: "ACME" });
    await issue(api, { customer: customer.id, numbering: "customer", series: "F", lines: [ivaLine()] });
    const same = await api.patch(`/v1/customers/${customer.id}`, {
      invoice_prefix: "acme",
      name: "Acme Nueva SA",
    });
    expectStatus(same, 200);
    expect([same.body.invoice_prefix, same.body.name]).toEqual(["ACME", "Acme Nueva SA"]);
    const next = await issue(api, {
      customer: customer.id,
      numbering: "customer",
      series: "F",
      lines: [ivaLine()],
    });
    expect(next.number).toBe("F-ACME-0002");
  });

  it("a simplified invoice naming the customer locks the prefix too", async () => {
    const { api, customer } = await esIssuer({ invoice_prefix: "SIMP" });
    await issue(api, { type: "simplified", customer: customer.id, lines: [ivaLine()] });
    const res = await api.patch(`/v1/customers/${customer.id}`, { invoice_prefix: "OTHER" });
    expectError(res, 409, "invoice_prefix_locked", "invoice_prefix");
  });

  it("a rejected issuance does not lock the prefix", async () => {
    const { api, customer } = await esIssuer({ invoice_prefix: "FREE" });
    expectError(
      await api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine("1", "nope")] }),
      400,
      "parameter_invalid",
      "lines.0.taxes.0.rule",
    );
    expectStatus(await api.patch(`/v1/customers/${customer.id}`, { invoice_prefix: "FREE2" }), 200);
  });
});

describe("A customer named by any invoice cannot be deleted: 409 resource_in_use", () => {
  it("deleting a customer with an invoice is 409 resource_in_use; one without invoices is deleted (204)", async () => {
    const { api, customer } = await esIssuer();
    const unused = await customerWithAddress(api);
    await issue(api, { type: "simplified", customer: customer.id, lines: [ivaLine()] });
    expectError(await api.del(`/v1/customers/${customer.id}`), 409, "resource_in_use");
    expectStatus(await api.del(`/v1/customers/${unused.id}`), 204);
    expectError(await api.get(`/v1/customers/${unused.id}`), 404, "resource_missing");
    expectStatus(await api.get(`/v1/customers/${customer.id}`), 200);
  });

  it("a customer deleted between an issue's read and its write: 400 on customer (not a 500), nothing issued, no number used", async () => {
    const { account, api, customer } = await esIssuer();
    const before = await countRows("invoices", account.id);
    // The race, exactly: the delete commits right before the issue's write batch (its second).
    beforeBatches(async (_, n) => {
      if (n === 2) await env.DB.prepare("DELETE FROM customers WHERE id = ?").bind(customer.id).run();
    });
    const res = await api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()] });
    vi.restoreAllMocks();
    expectError(res, 400, "parameter_invalid", "customer");
    expect(await countRows("invoices", account.id)).toBe(before);
    const next = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expect(next.number).toBe("SIM-0001");
  });
});

describe("Intra-Community supplies and reverse charges name their recipient by Tax ID (RD 1619/2012 arts. 6.1.d, 4.3)", () => {
  const euCustomer = { tax_id: { country: "DE", type: "eu_vat", value: "DE136695976" } };
  const localCustomer = { tax_id: { country: "US", type: "local", value: "US-123" } };

  it.each([
    ["exempt_art_25", "an es_nif customer", {}],
    ["reverse_charge_eu", "an es_nif customer", {}],
    ["reverse_charge", "a customer with a local Tax ID", localCustomer],
    ["reverse_charge", "a customer with another member state's VAT number", euCustomer],
  ])("%s to %s is 400 parameter_invalid on customer, writing nothing", async (rule, _, extra) => {
    const { account, api } = await esIssuer();
    const customer = await customerWithAddress(api, extra);
    const res = await api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine("100", rule)] });
    expectError(res, 400, "parameter_invalid", "customer");
    expect(res.body.error.message).toContain(`lines.0.taxes.0.rule ${rule}`);
    expect(await countRows("invoices", account.id)).toBe(0);
  });

  it.each([
    ["exempt_art_25", euCustomer],
    ["reverse_charge_eu", euCustomer],
    ["reverse_charge", {}],
  ])("%s to a customer with the Tax ID it needs issues", async (rule, extra) => {
    const { api } = await esIssuer();
    const customer = await customerWithAddress(api, extra);
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100", rule)] });
    expect(invoice.tax_breakdown.map((r) => r.rule)).toEqual([rule]);
  });

  it("a corrective of an intra-Community supply issues even after the customer's Tax ID changed", async () => {
    const { api } = await esIssuer();
    const customer = await customerWithAddress(api, euCustomer);
    const original = await issue(api, { customer: customer.id, lines: [ivaLine("100", "exempt_art_25")] });
    expectStatus(await api.patch(`/v1/customers/${customer.id}`, localCustomer), 200);
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [ivaLine("-100", "exempt_art_25")],
    });
    expect(corrective.corrects).toEqual({ invoice: original.id, reason: "R1" });
  });

  it("a reverse charge on a simplified invoice without a customer is 400 parameter_missing on customer", async () => {
    const { account, api } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      type: "simplified",
      lines: [ivaLine("100", "reverse_charge")],
    });
    expectError(res, 400, "parameter_missing", "customer");
    expect(await countRows("invoices", account.id)).toBe(0);
  });

  it("an intra-Community supply on a simplified invoice is 400 parameter_invalid on type, even to an EU business", async () => {
    const { account, api } = await esIssuer();
    const customer = await customerWithAddress(api, euCustomer);
    const res = await api.post("/v1/invoices", {
      type: "simplified",
      customer: customer.id,
      lines: [ivaLine("100", "exempt_art_25")],
    });
    expectError(res, 400, "parameter_invalid", "type");
    expect(await countRows("invoices", account.id)).toBe(0);
  });
});

describe("Payment terms", () => {
  it("explicit options are resolved in the order given, each with reference = the invoice number", async () => {
    const { api, customer } = await esIssuer();
    const a = await createInstruction(api);
    const b = await createInstruction(api, secondInstruction);
    const inv = await issue(api, {
      customer: customer.id,
      series: "F26",
      lines: [ivaLine()],
      payment_terms: { due_date: "2026-12-31", options: [b.id, a.id] },
    });
    expect(inv.payment_terms).toStrictEqual({
      due_date: "2026-12-31",
      options: [
        {
          payment_instruction: b.id,
          type: "bank_transfer",
          bank_transfer: { beneficiary: "Emisora Ejemplo SL", iban: "ES7921000813610123456789", bic: null },
          reference: "F26-0001",
        },
        {
          payment_instruction: a.id,
          type: "bank_transfer",
          bank_transfer: {
            beneficiary: "Acme Servicios SL",
            iban: "ES9121000418450200051332",
            bic: "CAIXESBBXXX",
          },
          reference: "F26-0001",
        },
      ],
    });
  });

  it("explicit options override the account defaults", async () => {
    const { api, customer } = await esIssuer();
    const a = await createInstruction(api);
    const b = await createInstruction(api, secondInstruction);
    await setProfile(api, { default_payment_instructions: [a.id] });
    const inv = await issue(api, {
      customer: customer.id,
      lines: [ivaLine()],
      payment_terms: { options: [b.id] },
    });
    expect(inv.payment_terms.options).toEqual([option(b, "INV-0001")]);
  });

  it("omitted options → the account's default_payment_instructions, current at issuance, for an ordinary invoice", async () => {
    const { api, customer } = await esIssuer();
    const a = await createInstruction(api);
    const b = await createInstruction(api, secondInstruction);
    await setProfile(api, { default_payment_instructions: [b.id, a.id] });
    const first = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(first.payment_terms).toEqual({
      due_date: null,
      options: [option(b, "INV-0001"), option(a, "INV-0001")],
    });
    // Omitting only the options while giving a due date still applies the defaults.
    await setProfile(api, { default_payment_instructions: [a.id] });
    const second = await issue(api, {
      customer: customer.id,
      lines: [ivaLine()],
      payment_terms: { due_date: "2026-12-31" },
    });
    expect(second.payment_terms).toEqual({ due_date: "2026-12-31", options: [option(a, "INV-0002")] });
    // The first invoice kept the defaults of its issuance.
    expect(await getInvoice(api, first.id)).toStrictEqual(first);
  });

  it("the defaults apply only to ordinary invoices: a simplified one without options gets none", async () => {
    const { api } = await esIssuer();
    const a = await createInstruction(api);
    await setProfile(api, { default_payment_instructions: [a.id] });
    const inv = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expect(inv.payment_terms.options).toEqual([]);
    // A simplified invoice may name its options explicitly.
    const named = await issue(api, {
      type: "simplified",
      lines: [ivaLine()],
      payment_terms: { options: [a.id] },
    });
    expect(named.payment_terms.options).toEqual([option(a, "SIM-0002")]);
  });

  it("zero and negative invoices and correctives get empty options, whatever the defaults", async () => {
    const { api, customer } = await esIssuer();
    const a = await createInstruction(api);
    await setProfile(api, { default_payment_instructions: [a.id] });
    const zero = await issue(api, { customer: customer.id, lines: [ivaLine("0")] });
    expect([zero.amount_payable, zero.payment_terms.options]).toEqual(["0.00", []]);
    const negative = await issue(api, { customer: customer.id, lines: [ivaLine("-10")] });
    expect([negative.amount_payable, negative.payment_terms.options]).toEqual(["-12.10", []]);
    const positive = await issue(api, { customer: customer.id, lines: [ivaLine("10")] });
    expect(positive.payment_terms.options).toEqual([option(a, "INV-0003")]);
    // A corrective invoice with a positive amount payable gets none either.
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: positive.id, reason: "R2" },
      lines: [ivaLine("5")],
    });
    expect([corrective.amount_payable, corrective.payment_terms.options]).toEqual(["6.05", []]);
  });

  it("options supplied for a zero, negative or corrective invoice are 400 payment_terms_not_applicable", async () => {
    const { api, customer } = await esIssuer();
    const a = await createInstruction(api);
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const bodies = [
      { customer: customer.id, lines: [ivaLine("0")], payment_terms: { options: [a.id] } },
      { customer: customer.id, lines: [ivaLine("-10")], payment_terms: { options: [a.id] } },
      {
        type: "corrective",
        corrects: { invoice: original.id, reason: "R1" },
        lines: [ivaLine("10")],
        payment_terms: { options: [a.id] },
      },
    ];
    for (const body of bodies) {
      const res = await api.post("/v1/invoices", body);
      expectError(res, 400, "payment_terms_not_applicable", "payment_terms.options");
    }
  });

  it("an unknown option, another account's, or another environment's is 400 payment_terms.options.<i>", async () => {
    const { account, api, customer } = await esIssuer();
    const own = await createInstruction(api);
    const stranger = await createInstruction(client((await createAccount()).testKey));
    const liveOne = await createInstruction(client(account.liveKey));
    const cases: [string[], string][] = [
      [["pmi_00000000000000000000000000"], "payment_terms.options.0"],
      [[own.id, stranger.id], "payment_terms.options.1"],
      [[liveOne.id], "payment_terms.options.0"],
      [[own.id, "not-an-id"], "payment_terms.options.1"],
    ];
    for (const [options, param] of cases) {
      const res = await api.post("/v1/invoices", {
        customer: customer.id,
        lines: [ivaLine()],
        payment_terms: { options },
      });
      expectError(res, 400, "parameter_invalid", param);
    }
  });

  it("options must be distinct and 1–10: 10 distinct are accepted in order; a duplicate is 400 on its index; 0 or 11 entries are 400", async () => {
    const { api, customer } = await esIssuer();
    const ids: string[] = [];
    for (let k = 0; k < 11; k++) ids.push((await createInstruction(api, { label: `Bank ${k}` })).id);
    const post = (options: string[]) =>
      api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()], payment_terms: { options } });
    const a = ids[0]!;
    expectError(await post([a, a]), 400, "parameter_invalid", "payment_terms.options.1");
    expectError(await post([]), 400, "parameter_invalid", "payment_terms.options");
    expectError(await post(ids), 400, "parameter_invalid", "payment_terms.options");
    const ten = await post(ids.slice(1));
    expectStatus(ten, 201);
    expect((ten.body as Invoice).payment_terms.options.map((o) => o.payment_instruction)).toEqual(
      ids.slice(1),
    );
  });

  it("due_date before issue_date is 400 payment_terms.due_date; equal to it is accepted", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      issue_date: "2026-11-20",
      lines: [ivaLine()],
      payment_terms: { due_date: "2026-11-19" },
    });
    expectError(res, 400, "parameter_invalid", "payment_terms.due_date");
    const same = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-20",
      lines: [ivaLine()],
      payment_terms: { due_date: "2026-11-20" },
    });
    expect(same.payment_terms.due_date).toBe("2026-11-20");
    // A due date may be in the future.
    const future = await issue(api, {
      customer: customer.id,
      lines: [ivaLine()],
      payment_terms: { due_date: "2030-01-31" },
    });
    expect(future.payment_terms.due_date).toBe("2030-01-31");
  });
});

describe("Dates of issuance", () => {
  it("a future issue_date is 400 parameter_invalid issue_date; today is accepted", async () => {
    freezeAt("2026-11-23T12:00:00.000Z");
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      issue_date: "2026-11-24",
      lines: [ivaLine()],
    });
    expectError(res, 400, "parameter_invalid", "issue_date");
    const today = await issue(api, { customer: customer.id, issue_date: "2026-11-23", lines: [ivaLine()] });
    expect(today.number).toBe("INV-0001");
  });

  it("operation_date after issue_date is 400 parameter_invalid operation_date; equal or earlier is accepted", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      issue_date: "2026-11-10",
      operation_date: "2026-11-11",
      lines: [ivaLine()],
    });
    expectError(res, 400, "parameter_invalid", "operation_date");
    const same = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-10",
      operation_date: "2026-11-10",
      lines: [ivaLine()],
    });
    const earlier = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-10",
      operation_date: "2026-10-31",
      lines: [ivaLine()],
    });
    const none = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-10",
      operation_date: null,
      lines: [ivaLine()],
    });
    expect([same.operation_date, earlier.operation_date, none.operation_date]).toEqual([
      "2026-11-10",
      "2026-10-31",
      null,
    ]);
  });

  it("operation_date after a defaulted issue_date (today) is 400", async () => {
    freezeAt("2026-11-23T12:00:00.000Z");
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      operation_date: "2026-11-24",
      lines: [ivaLine()],
    });
    expectError(res, 400, "parameter_invalid", "operation_date");
  });
});

/** Stops the app's clock at `iso` for the rest of the running test. */
function freezeAt(iso: string): void {
  useClock(Date.parse(iso));
}
