import type { Invoice } from "../../src/invoices/schemas";
import { type ApiClient, client, expectStatus } from "./api";
import { createAccount, type TestAccount } from "./factories";
import type { Customer } from "./types";

export type { Invoice };

type Api = ApiClient;

/** A complete Spanish issuer profile (the seed gives the dev accounts one like it). */
export const esProfile = {
  legal_name: "Emisora Ejemplo SL",
  tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
  address: { line_1: "Calle Mayor 1", city: "Madrid", postal_code: "28013", country: "ES" },
};

export const esAddress = { line_1: "Gran Vía 2", city: "Madrid", postal_code: "28013", country: "ES" };

/** The worked example of invoices.md: 3 × 33.333 with IVA general and IRPF professional. */
export const workedLine = {
  description: "Consulting",
  quantity: "3",
  unit_price: "33.333",
  taxes: [
    { tax: "iva", rule: "general" },
    { tax: "irpf", rule: "professional" },
  ],
};

export const ivaLine = (unit_price = "100", rule = "general") => ({
  description: "Service",
  quantity: "1",
  unit_price,
  taxes: [{ tax: "iva", rule }],
});

/** Gives the key's environment a complete issuer profile. */
export async function setProfile(api: Api, profile: Record<string, unknown> = esProfile) {
  const res = await api.patch("/v1/account", profile);
  expectStatus(res, 200);
  return res.body;
}

/** A customer with an address (the Spanish rule for ordinary invoices). */
export async function customerWithAddress(api: Api, extra: Record<string, unknown> = {}) {
  const res = await api.post("/v1/customers", {
    name: "Cliente Ejemplo SA",
    tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
    address: esAddress,
    ...extra,
  });
  expectStatus(res, 201);
  return res.body;
}

/** Issues an invoice and returns it (201 or the test fails with the response). */
export async function issue(api: Api, body: Record<string, unknown>): Promise<Invoice> {
  const res = await api.post("/v1/invoices", body);
  expectStatus(res, 201);
  return res.body as Invoice;
}

/** Retrieves an invoice (200 or the test fails with the response). */
export async function getInvoice(api: Api, id: string): Promise<Invoice> {
  const res = await api.get(`/v1/invoices/${id}`);
  expectStatus(res, 200);
  return res.body as Invoice;
}

export type IssuerSetup = { account: TestAccount; api: ApiClient; customer: Customer };

/** A fresh `es` account with a complete issuer profile and a customer with an address. */
export async function esIssuer(customerExtra: Record<string, unknown> = {}): Promise<IssuerSetup> {
  const account = await createAccount({ taxRegime: "es" });
  const api = client(account.testKey);
  await setProfile(api);
  return { account, api, customer: await customerWithAddress(api, customerExtra) };
}
