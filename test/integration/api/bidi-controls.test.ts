/**
 * Text that reaches a PDF or an XML document refuses Unicode's bidirectional embeddings,
 * overrides and isolates (src/lib/fields.ts): one left open reorders what is shown after it.
 * The joiners Persian and Indic scripts need, and the implicit direction marks, are kept.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, createInstruction } from "../../helpers/factories";
import { customerWithAddress, esAddress, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

type Body = Record<string, any>;

/** A copy of `body` with `value` at the dotted `path`. */
function withField(body: Body, path: string, value: string): Body {
  const copy = structuredClone(body);
  const keys = path.split(".");
  const last = keys.pop() as string;
  let target = copy;
  for (const key of keys) target = target[key];
  target[last] = value;
  return copy;
}

// One of each class, in the middle of a value: "Acme" then a right-to-left override.
const CLASSES: [string, string][] = [
  ["LRE U+202A (embedding)", "\u202a"],
  ["RLE U+202B (embedding)", "\u202b"],
  ["PDF U+202C (pop)", "\u202c"],
  ["LRO U+202D (override)", "\u202d"],
  ["RLO U+202E (override)", "\u202e"],
  ["LRI U+2066 (isolate)", "\u2066"],
  ["RLI U+2067 (isolate)", "\u2067"],
  ["FSI U+2068 (isolate)", "\u2068"],
  ["PDI U+2069 (pop isolate)", "\u2069"],
];

/** Persian "mi-khâham" (I want): its ZWNJ keeps the prefix's letter unjoined. */
const PERSIAN = "شرکت می\u200cخواهم";

describe("bidirectional formatting characters in text fields", () => {
  const s = { api: undefined as unknown as ApiClient, customer: "", invoice: "", global: "" };
  let globalApi: ApiClient;
  beforeAll(async () => {
    const account = await createAccount({ taxRegime: "es" });
    s.api = client(account.testKey);
    await setProfile(s.api);
    s.customer = (await customerWithAddress(s.api)).id;
    s.invoice = (await issue(s.api, { customer: s.customer, lines: [ivaLine()] })).id;
    await createInstruction(account.testKey);
    globalApi = client((await createAccount({ taxRegime: "global" })).testKey);
    s.global = (await customerWithAddress(globalApi)).id;
  });

  type Case = {
    name: string;
    method: "post" | "patch";
    path: () => string;
    body: () => Body;
    api?: () => ApiClient;
  };
  const customer: Case = {
    name: "POST /v1/customers",
    method: "post",
    path: () => "/v1/customers",
    body: () => ({
      name: "Cliente",
      phone: "+34 600",
      tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
      address: { ...esAddress, line_2: "2º", state: "Madrid" },
    }),
  };
  const account: Case = {
    name: "PATCH /v1/account",
    method: "patch",
    path: () => "/v1/account",
    body: () => ({ legal_name: "Emisora", address: { line_1: "Calle Mayor 1" } }),
  };
  const instruction: Case = {
    name: "POST /v1/payment-instructions",
    method: "post",
    path: () => "/v1/payment-instructions",
    body: () => ({
      label: "Main",
      type: "bank_transfer",
      bank_transfer: { beneficiary: "Acme", iban: "ES9121000418450200051332" },
    }),
  };
  const invoice: Case = {
    name: "POST /v1/invoices",
    method: "post",
    path: () => "/v1/invoices",
    body: () => ({ customer: s.customer, lines: [ivaLine()], notes: "Gracias" }),
  };
  const customTax: Case = {
    name: "POST /v1/invoices (global)",
    method: "post",
    path: () => "/v1/invoices",
    api: () => globalApi,
    body: () => ({
      customer: s.global,
      currency: "USD",
      lines: [
        {
          description: "Consulting",
          quantity: "1",
          unit_price: "10",
          taxes: [{ name: "Sales tax", rate: "8%", effect: "added" }],
        },
      ],
    }),
  };
  const payment: Case = {
    name: "POST /v1/invoices/{id}/payments",
    method: "post",
    path: () => `/v1/invoices/${s.invoice}/payments`,
    body: () => ({ amount: "1.00", reference: "Transfer" }),
  };
  const destination: Case = {
    name: "POST /v1/event-destinations",
    method: "post",
    path: () => "/v1/event-destinations",
    body: () => ({ name: "Hooks", url: "https://hooks.example.com/a", enabled_events: ["customer.created"] }),
  };
  const voidInvoice: Case = {
    name: "POST /v1/invoices/{id}/void",
    method: "post",
    path: () => `/v1/invoices/${s.invoice}/void`,
    body: () => ({ reason: "Wrong customer" }),
  };

  // Every kind of text field: names, legal names, address lines, line descriptions, notes
  // (multi-line), custom tax names, payment holders and references, labels, void reasons.
  const FIELDS: [string, Case][] = [
    ["name", customer],
    ["phone", customer],
    ["address.line_1", customer],
    ["address.line_2", customer],
    ["address.city", customer],
    ["address.state", customer],
    ["address.postal_code", customer],
    ["legal_name", account],
    ["address.line_1", account],
    ["label", instruction],
    ["bank_transfer.beneficiary", instruction],
    ["lines.0.description", invoice],
    ["notes", invoice],
    ["lines.0.taxes.0.name", customTax],
    ["reference", payment],
    ["name", destination],
    ["reason", voidInvoice],
  ];

  for (const [field, c] of FIELDS) {
    const send = (body: Body) => (c.api?.() ?? s.api)[c.method](c.path() as never, body as never);
    it.each(CLASSES)(`${c.name}: ${field} with %s is 400 param ${field}`, async (_, ch) => {
      const res = await send(withField(c.body(), field, `Acme ${ch}1.00 ${ch}x`));
      expectError(res, 400, "parameter_invalid", field);
      expect((res.body as { error: { message: string } }).error.message).toMatch(/bidirectional/);
    });
  }

  it("a Persian name with ZWNJ, and one with ZWJ and direction marks, are accepted as sent", async () => {
    for (const name of [PERSIAN, "क्\u200dष \u200fاسم\u200e \u061c"]) {
      const res = await s.api.post("/v1/customers", { ...customer.body(), name });
      expectStatus(res, 201);
      expect(res.body.name).toBe(name);
    }
  });

  it("a line description and notes in Persian with ZWNJ are accepted", async () => {
    const res = await s.api.post("/v1/invoices", {
      customer: s.customer,
      lines: [{ ...ivaLine(), description: PERSIAN }],
      notes: `${PERSIAN}\n${PERSIAN}`,
    });
    expectStatus(res, 201);
    expect((res.body as { lines: { description: string }[] }).lines[0]?.description).toBe(PERSIAN);
  });
});
