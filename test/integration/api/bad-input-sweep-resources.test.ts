/** The bad-input sweep (test/helpers/sweep.ts) over customers, payment instructions, event destinations and the account. */
import { afterEach, beforeAll, describe, vi } from "vitest";
import {
  createAccount,
  createCustomer,
  createDestination,
  createInstruction,
  validAddress,
  validInstruction,
} from "../../helpers/factories";
import { esProfile } from "../../helpers/invoices";
import { sweepWrite } from "../../helpers/sweep";

// An event no mutation here causes, so nothing is delivered.
const destination = {
  name: "Hooks",
  url: "https://hooks.example.com/a",
  enabled_events: ["tax_id.verification.completed"],
};

/** A public-sector customer's DIR3 codes, all four. */
const dir3 = {
  accounting_office: "L01280796",
  managing_body: "L01280796",
  processing_unit: "GE0000531",
  proposing_body: "E04921501",
};

describe("bad input sweep: customers, payment instructions, event destinations, the account", () => {
  const s = { key: "", customer: "", instruction: "", destination: "" };
  beforeAll(async () => {
    s.key = (await createAccount({ taxRegime: "es" })).testKey;
    s.customer = (await createCustomer(s.key)).id;
    s.instruction = (await createInstruction(s.key)).id;
    s.destination = (await createDestination(s.key, destination)).id;
  });
  afterEach(() => vi.restoreAllMocks());
  const key = () => s.key;

  sweepWrite({
    name: "POST /v1/customers",
    method: "POST",
    path: () => "/v1/customers",
    key,
    ok: 201,
    body: () => ({
      name: "Cliente",
      email: "a@b.example",
      phone: "+34 600 000 000",
      invoice_prefix: "CLI",
      address: validAddress,
      tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
      einvoicing: { peppol_id: "9920:ESB12345674", dir3: dir3 },
    }),
  });
  sweepWrite({
    name: "PATCH /v1/customers/{id}",
    method: "PATCH",
    path: () => `/v1/customers/${s.customer}`,
    key,
    ok: 200,
    body: () => ({
      name: "Cliente",
      email: "a@b.example",
      address: validAddress,
      einvoicing: { peppol_id: "0088:5790000435968", dir3: dir3 },
    }),
  });
  sweepWrite({
    name: "POST /v1/payment-instructions",
    method: "POST",
    path: () => "/v1/payment-instructions",
    key,
    ok: 201,
    body: () => validInstruction,
  });
  sweepWrite({
    name: "PATCH /v1/payment-instructions/{id}",
    method: "PATCH",
    path: () => `/v1/payment-instructions/${s.instruction}`,
    key,
    ok: 200,
    body: () => ({ label: "Main", bank_transfer: validInstruction.bank_transfer }),
  });
  sweepWrite({
    name: "POST /v1/event-destinations",
    method: "POST",
    path: () => "/v1/event-destinations",
    key,
    ok: 201,
    body: () => destination,
  });
  sweepWrite({
    name: "PATCH /v1/event-destinations/{id}",
    method: "PATCH",
    path: () => `/v1/event-destinations/${s.destination}`,
    key,
    ok: 200,
    body: () => ({ ...destination, url: "https://hooks.example.com/b" }),
  });
  sweepWrite({
    name: "PATCH /v1/account",
    method: "PATCH",
    path: () => "/v1/account",
    key,
    ok: 200,
    body: () => ({
      ...esProfile,
      default_payment_instructions: [s.instruction],
      einvoicing: { peppol_id: "9920:ESB12345674" },
    }),
  });
});
