/**
 * Bad input to POST /v1/invoices: every malformed field is its documented 400 `code` and
 * `param` (decisions.md "Errors", invoices.md field tables), and a rejected request writes
 * nothing: the whole database is the same before and after, and no number is consumed.
 * Then the authentication matrix of the invoice routes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, request } from "../../helpers/api";
import { createAccount, createCustomer, type TestAccount } from "../../helpers/factories";
import {
  customerWithAddress,
  getInvoice,
  issue,
  ivaLine,
  setProfile,
  workedLine,
} from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { dbSnapshot, describeAuthMatrix, expectError } from "../../helpers/security";

type Ctx = { customer: string; invoice: string };
type Row = [label: string, body: (c: Ctx) => unknown, code: string, param: string];

const withLine = (c: Ctx, patch: Record<string, unknown>) => ({
  customer: c.customer,
  lines: [{ ...workedLine, ...patch }],
});
const withTaxes = (c: Ctx, taxes: unknown[]) => withLine(c, { taxes });
const withBody = (c: Ctx, patch: Record<string, unknown>) => ({
  customer: c.customer,
  lines: [workedLine],
  ...patch,
});

const esRows: Row[] = [
  [
    "an unknown rule on line 3's second tax",
    (c) => ({
      customer: c.customer,
      lines: [
        ivaLine(),
        ivaLine(),
        ivaLine(),
        {
          ...workedLine,
          taxes: [
            { tax: "iva", rule: "general" },
            { tax: "irpf", rule: "nope" },
          ],
        },
      ],
    }),
    "parameter_invalid",
    "lines.3.taxes.1.rule",
  ],
  ["quantity as a JSON number", (c) => withLine(c, { quantity: 3 }), "parameter_invalid", "lines.0.quantity"],
  [
    "unit_price as a JSON number",
    (c) => withLine(c, { unit_price: 33.333 }),
    "parameter_invalid",
    "lines.0.unit_price",
  ],
  [
    "quantity with 7 decimals",
    (c) => withLine(c, { quantity: "1.0000001" }),
    "parameter_invalid",
    "lines.0.quantity",
  ],
  [
    "unit_price with 7 decimals",
    (c) => withLine(c, { unit_price: "0.0000001" }),
    "parameter_invalid",
    "lines.0.unit_price",
  ],
  ["quantity 0", (c) => withLine(c, { quantity: "0" }), "parameter_invalid", "lines.0.quantity"],
  [
    "quantity 0.000000",
    (c) => withLine(c, { quantity: "0.000000" }),
    "parameter_invalid",
    "lines.0.quantity",
  ],
  ["a negative quantity", (c) => withLine(c, { quantity: "-1" }), "parameter_invalid", "lines.0.quantity"],
  [
    "quantity over 1,000,000,000",
    (c) => withLine(c, { quantity: "1000000000.000001" }),
    "parameter_invalid",
    "lines.0.quantity",
  ],
  [
    "unit_price over 10^12",
    (c) => withLine(c, { unit_price: "1000000000000.000001" }),
    "parameter_invalid",
    "lines.0.unit_price",
  ],
  [
    "unit_price under −10^12",
    (c) => withLine(c, { unit_price: "-1000000000001" }),
    "parameter_invalid",
    "lines.0.unit_price",
  ],
  ...["1e3", "+1", ".5", "01", " 1", "1,5", "1.", "", "one", "0x10"].map(
    (quantity): Row => [
      `quantity "${quantity}"`,
      (c) => withLine(c, { quantity }),
      "parameter_invalid",
      "lines.0.quantity",
    ],
  ),
  [
    "a line amount beyond ±10^15 minor units",
    (c) => withLine(c, { quantity: "1000000000", unit_price: "1000000000000" }),
    "parameter_invalid",
    "lines.0.unit_price",
  ],
  [
    "totals beyond ±10^15 minor units (two lines of 9 × 10^14)",
    (c) => ({
      customer: c.customer,
      lines: [1, 2].map(() => ({ ...ivaLine("9000000000"), quantity: "1000" })),
    }),
    "parameter_invalid",
    "lines",
  ],
  ["no lines", (c) => ({ customer: c.customer, lines: [] }), "parameter_invalid", "lines"],
  [
    "201 lines",
    (c) => ({ customer: c.customer, lines: Array(201).fill(ivaLine()) }),
    "parameter_invalid",
    "lines",
  ],
  ["lines missing", (c) => ({ customer: c.customer }), "parameter_missing", "lines"],
  ["lines not an array", (c) => ({ customer: c.customer, lines: "x" }), "parameter_invalid", "lines"],
  [
    "an empty description",
    (c) => withLine(c, { description: "" }),
    "parameter_invalid",
    "lines.0.description",
  ],
  [
    "a description of 1001 characters",
    (c) => withLine(c, { description: "x".repeat(1001) }),
    "parameter_invalid",
    "lines.0.description",
  ],
  [
    "a description with NUL",
    (c) => withLine(c, { description: "a\u0000b" }),
    "parameter_invalid",
    "lines.0.description",
  ],
  [
    "a description with a lone surrogate",
    (c) => withLine(c, { description: "a\ud800b" }),
    "parameter_invalid",
    "lines.0.description",
  ],
  [
    "description missing",
    (c) => ({
      customer: c.customer,
      lines: [{ quantity: "1", unit_price: "1", taxes: [{ tax: "iva", rule: "general" }] }],
    }),
    "parameter_missing",
    "lines.0.description",
  ],
  [
    "taxes missing",
    (c) => ({ customer: c.customer, lines: [{ description: "x", quantity: "1", unit_price: "1" }] }),
    "parameter_missing",
    "lines.0.taxes",
  ],
  ["an unknown top-level field", (c) => withBody(c, { discount: "10" }), "parameter_unknown", "discount"],
  ["an unknown field in a line", (c) => withLine(c, { color: "red" }), "parameter_unknown", "lines.0.color"],
  [
    "an unknown field in a tax entry",
    (c) => withTaxes(c, [{ tax: "iva", rule: "general", rate: "21%" }]),
    "parameter_unknown",
    "lines.0.taxes.0.rate",
  ],
  [
    "an unknown field in payment_terms",
    (c) => withBody(c, { payment_terms: { net_days: 30 } }),
    "parameter_unknown",
    "payment_terms.net_days",
  ],
  [
    "notes over 2000 characters",
    (c) => withBody(c, { notes: "x".repeat(2001) }),
    "parameter_invalid",
    "notes",
  ],
  ["notes not a string", (c) => withBody(c, { notes: 5 }), "parameter_invalid", "notes"],
  ["an unknown type", (c) => withBody(c, { type: "credit_note" }), "parameter_invalid", "type"],
  ["an unknown numbering", (c) => withBody(c, { numbering: "yearly" }), "parameter_invalid", "numbering"],
  ["a series with a hyphen", (c) => withBody(c, { series: "A-B" }), "parameter_invalid", "series"],
  [
    "an impossible issue_date",
    (c) => withBody(c, { issue_date: "2026-02-30" }),
    "parameter_invalid",
    "issue_date",
  ],
  [
    "an issue_date not written YYYY-MM-DD",
    (c) => withBody(c, { issue_date: "23/11/2026" }),
    "parameter_invalid",
    "issue_date",
  ],
  [
    "an issue_date with a time",
    (c) => withBody(c, { issue_date: "2026-11-23T00:00:00Z" }),
    "parameter_invalid",
    "issue_date",
  ],
  [
    "a future issue_date",
    (c) => withBody(c, { issue_date: "2099-01-01" }),
    "parameter_invalid",
    "issue_date",
  ],
  [
    "an impossible operation_date",
    (c) => withBody(c, { operation_date: "2026-13-01" }),
    "parameter_invalid",
    "operation_date",
  ],
  [
    "an operation_date after issue_date",
    (c) => withBody(c, { issue_date: "2026-11-01", operation_date: "2026-11-02" }),
    "parameter_invalid",
    "operation_date",
  ],
  [
    "a non-EUR currency on an es account",
    (c) => withBody(c, { currency: "USD" }),
    "parameter_invalid",
    "currency",
  ],
  [
    "a currency that is not 3 letters",
    (c) => withBody(c, { currency: "EURO" }),
    "parameter_invalid",
    "currency",
  ],
  [
    "an unknown customer",
    (c) => withBody(c, { customer: "cus_00000000000000000000000000" }),
    "parameter_invalid",
    "customer",
  ],
  ["a customer that is not a string", (c) => withBody(c, { customer: 42 }), "parameter_invalid", "customer"],
  ["an ordinary invoice without customer", () => ({ lines: [workedLine] }), "parameter_missing", "customer"],
  [
    "a line without an iva entry",
    (c) => withTaxes(c, [{ tax: "irpf", rule: "professional" }]),
    "parameter_invalid",
    "lines.0.taxes",
  ],
  [
    "two iva entries on a line",
    (c) =>
      withTaxes(c, [
        { tax: "iva", rule: "general" },
        { tax: "iva", rule: "reduced" },
      ]),
    "parameter_invalid",
    "lines.0.taxes.1.tax",
  ],
  [
    "an unknown tax",
    (c) => withTaxes(c, [{ tax: "vat", rule: "general" }]),
    "parameter_invalid",
    "lines.0.taxes.0.tax",
  ],
  [
    "a custom tax on an es account",
    (c) => withTaxes(c, [{ name: "GST", rate: "10%", effect: "added" }]),
    "parameter_invalid",
    "lines.0.taxes.0",
  ],
  [
    "a rule as a JSON number",
    (c) => withTaxes(c, [{ tax: "iva", rule: 21 }]),
    "parameter_invalid",
    "lines.0.taxes.0.rule",
  ],
  [
    "a tax entry without its rule",
    (c) => withTaxes(c, [{ tax: "iva" }]),
    "parameter_missing",
    "lines.0.taxes.0.rule",
  ],
  [
    "a temporary rule after its end",
    (c) => withTaxes(c, [{ tax: "iva", rule: "electricity_temporary" }]),
    "parameter_invalid",
    "lines.0.taxes.0.rule",
  ],
  [
    "a recargo rule other than the iva rule",
    (c) =>
      withTaxes(c, [
        { tax: "iva", rule: "general" },
        { tax: "recargo_equivalencia", rule: "super_reduced" },
      ]),
    "parameter_invalid",
    "lines.0.taxes.1.rule",
  ],
  [
    "11 taxes on a line",
    (c) => withTaxes(c, Array(11).fill({ tax: "iva", rule: "general" })),
    "parameter_invalid",
    "lines.0.taxes",
  ],
  [
    "empty payment options",
    (c) => withBody(c, { payment_terms: { options: [] } }),
    "parameter_invalid",
    "payment_terms.options",
  ],
  [
    "an unknown payment option",
    (c) => withBody(c, { payment_terms: { options: ["pmi_00000000000000000000000000"] } }),
    "parameter_invalid",
    "payment_terms.options.0",
  ],
  [
    "payment_terms not an object",
    (c) => withBody(c, { payment_terms: "net 30" }),
    "parameter_invalid",
    "payment_terms",
  ],
  [
    "a due_date not a date",
    (c) => withBody(c, { payment_terms: { due_date: "tomorrow" } }),
    "parameter_invalid",
    "payment_terms.due_date",
  ],
  [
    "a due_date before issue_date",
    (c) => withBody(c, { issue_date: "2026-11-10", payment_terms: { due_date: "2026-11-09" } }),
    "parameter_invalid",
    "payment_terms.due_date",
  ],
  [
    "corrects on an ordinary invoice",
    (c) => withBody(c, { corrects: { invoice: c.invoice, reason: "R1" } }),
    "parameter_invalid",
    "corrects",
  ],
  [
    "a corrective invoice without corrects",
    () => ({ type: "corrective", lines: [workedLine] }),
    "parameter_missing",
    "corrects",
  ],
  [
    "an unknown correction reason",
    (c) => ({ type: "corrective", corrects: { invoice: c.invoice, reason: "R9" }, lines: [workedLine] }),
    "parameter_invalid",
    "corrects.reason",
  ],
  [
    "corrects without its reason",
    (c) => ({ type: "corrective", corrects: { invoice: c.invoice }, lines: [workedLine] }),
    "parameter_missing",
    "corrects.reason",
  ],
  [
    "an unknown corrected invoice",
    () => ({
      type: "corrective",
      corrects: { invoice: "inv_00000000000000000000000000", reason: "R1" },
      lines: [workedLine],
    }),
    "parameter_invalid",
    "corrects.invoice",
  ],
];

const custom = (tax: Record<string, unknown>) => ({ name: "GST", rate: "10%", effect: "added", ...tax });
const globalRows: Row[] = [
  [
    "a custom rate as a JSON number",
    (c) => withTaxes(c, [custom({ rate: 10 })]),
    "parameter_invalid",
    "lines.0.taxes.0.rate",
  ],
  [
    "a custom rate without %",
    (c) => withTaxes(c, [custom({ rate: "10" })]),
    "parameter_invalid",
    "lines.0.taxes.0.rate",
  ],
  [
    "a custom rate over 100 %",
    (c) => withTaxes(c, [custom({ rate: "100.0001%" })]),
    "parameter_invalid",
    "lines.0.taxes.0.rate",
  ],
  [
    "a custom rate with 5 decimals",
    (c) => withTaxes(c, [custom({ rate: "1.00001%" })]),
    "parameter_invalid",
    "lines.0.taxes.0.rate",
  ],
  [
    "a negative custom rate",
    (c) => withTaxes(c, [custom({ rate: "-1%" })]),
    "parameter_invalid",
    "lines.0.taxes.0.rate",
  ],
  [
    "an empty custom tax name",
    (c) => withTaxes(c, [custom({ name: "" })]),
    "parameter_invalid",
    "lines.0.taxes.0.name",
  ],
  [
    "a custom tax name of 65 characters",
    (c) => withTaxes(c, [custom({ name: "N".repeat(65) })]),
    "parameter_invalid",
    "lines.0.taxes.0.name",
  ],
  [
    "a custom tax name with a tab",
    (c) => withTaxes(c, [custom({ name: "G\tST" })]),
    "parameter_invalid",
    "lines.0.taxes.0.name",
  ],
  [
    "an unknown custom effect",
    (c) => withTaxes(c, [custom({ effect: "plus" })]),
    "parameter_invalid",
    "lines.0.taxes.0.effect",
  ],
  [
    "a custom tax without effect",
    (c) => withTaxes(c, [{ name: "GST", rate: "10%" }]),
    "parameter_missing",
    "lines.0.taxes.0.effect",
  ],
  [
    "a catalog tax on a global account",
    (c) => withTaxes(c, [{ tax: "iva", rule: "general" }]),
    "parameter_invalid",
    "lines.0.taxes.0",
  ],
  [
    "11 custom taxes on a line",
    (c) => withTaxes(c, Array(11).fill(custom({}))),
    "parameter_invalid",
    "lines.0.taxes",
  ],
  [
    "the same custom tax twice on a line",
    (c) => withTaxes(c, [custom({}), custom({ name: "PST" }), custom({ rate: "10.0%" })]),
    "parameter_invalid",
    "lines.0.taxes.2",
  ],
  [
    "an unknown currency",
    (c) => ({ ...withTaxes(c, [custom({})]), currency: "XXY" }),
    "parameter_invalid",
    "currency",
  ],
];

/**
 * One account whose every bad request is checked to write nothing; after the table, its
 * first valid issue still gets number 1 of the series.
 */
function describeBadInput(regime: "es" | "global", rows: Row[]) {
  describe(`bad input on a ${regime} account is 400 with its param, and writes nothing`, () => {
    let account: TestAccount;
    let api: ApiClient;
    const ctx: Ctx = { customer: "", invoice: "" };

    beforeAll(async () => {
      account = await createAccount({ taxRegime: regime });
      api = client(account.testKey);
      if (regime === "es") {
        await setProfile(api);
        ctx.customer = (await customerWithAddress(api)).id;
      } else {
        ctx.customer = (await createCustomer(api, { name: "Initech Inc" })).id;
      }
      // A corrected invoice to name in `corrects`, in another series than the one checked below.
      const body = regime === "es" ? { lines: [ivaLine()] } : { lines: [{ ...ivaLine(), taxes: [] }] };
      ctx.invoice = (await issue(api, { ...body, type: "simplified", series: "OLD" })).id;
    });

    // The title shows label, code and param; the body comes last.
    const table = rows.map(([label, body, code, param]) => [label, code, param, body] as const);
    it.each(table)("%s → 400 %s %s", async (_, code, param, body) => {
      const before = await dbSnapshot();
      // The snapshot must hold the account's data, or equality would prove nothing.
      expect(before).toContain(account.id);
      const res = await api.post("/v1/invoices", body(ctx));
      expectError(res, 400, code, param);
      expect(await dbSnapshot()).toBe(before);
    });

    it("after every rejection above, the next valid invoice is number 0001 of its series", async () => {
      const lines = regime === "es" ? [workedLine] : [{ ...workedLine, taxes: [custom({})] }];
      const inv = await issue(api, { customer: ctx.customer, lines });
      expect(inv.number).toBe("INV-0001");
      const simplified = await issue(api, { type: "simplified", lines });
      expect(simplified.number).toBe("SIM-0001");
      // The corrected invoice was never amended by the rejected correctives.
      expect((await getInvoice(api, ctx.invoice)).corrected_by).toEqual([]);
    });
  });
}

describeBadInput("es", esRows);
describeBadInput("global", globalRows);

describe("Input hygiene: notes must be valid Unicode without NUL (decisions.md)", () => {
  it.each([
    ["NUL", "a\u0000b"],
    ["a lone surrogate", "a\ud800b"],
  ])("notes with %s → 400 parameter_invalid notes, writing nothing", async (_, notes) => {
    const account = await createAccount({ taxRegime: "es" });
    const api = client(account.testKey);
    await setProfile(api);
    const customer = await customerWithAddress(api);
    const before = await dbSnapshot();
    const res = await api.post("/v1/invoices", { customer: customer.id, lines: [workedLine], notes });
    expectError(res, 400, "parameter_invalid", "notes");
    expect(await dbSnapshot()).toBe(before);
  });

  it.each([
    ["U+FFFE", "Servicio \ufffe"],
    ["U+FFFF", "Servicio \uffff"],
  ])(
    "a line description with the noncharacter %s (XML cannot hold it) → 400 parameter_invalid lines.0.description, writing nothing",
    async (_, description) => {
      const account = await createAccount({ taxRegime: "es" });
      const api = client(account.testKey);
      await setProfile(api);
      const customer = await customerWithAddress(api);
      const before = await dbSnapshot();
      const res = await api.post("/v1/invoices", {
        customer: customer.id,
        lines: [{ ...workedLine, description }],
      });
      expectError(res, 400, "parameter_invalid", "lines.0.description");
      expect(await dbSnapshot()).toBe(before);
    },
  );
});

describe("request bodies that are not a JSON object", () => {
  let key: string;
  beforeAll(async () => {
    const account = await createAccount({ taxRegime: "es" });
    key = account.testKey;
    await setProfile(client(key));
  });

  it("malformed JSON is 400 json_invalid and writes nothing", async () => {
    const before = await dbSnapshot();
    const res = await request("POST", "/v1/invoices", undefined, {
      key,
      headers: { "content-type": "application/json" },
      rawBody: '{"lines": [',
    });
    expectError(res, 400, "json_invalid");
    expect(await dbSnapshot()).toBe(before);
  });

  it("a body that is not application/json is 415 and writes nothing", async () => {
    const before = await dbSnapshot();
    const res = await request("POST", "/v1/invoices", undefined, {
      key,
      headers: { "content-type": "text/plain" },
      rawBody: JSON.stringify({ type: "simplified", lines: [ivaLine()] }),
    });
    expectError(res, 415, "unsupported_media_type");
    expect(await dbSnapshot()).toBe(before);
  });
});

describeAuthMatrix({
  method: "POST",
  path: () => "/v1/invoices",
  body: { type: "simplified", lines: [ivaLine()] },
});

describeAuthMatrix({
  method: "GET",
  path: () => "/v1/invoices",
});

describeAuthMatrix({
  method: "GET",
  path: (id) => `/v1/invoices/${id}`,
  create: async (key) => {
    // A Live es invoice is issued only where its record can be sent (verifactu-system.md §4).
    const live = key.startsWith("sk_live_");
    const api = live ? await readyLive({ id: "", testKey: "", liveKey: key }) : client(key);
    if (!live) await setProfile(api);
    const customer = await customerWithAddress(api);
    return (await issue(api, { customer: customer.id, lines: [workedLine] })).id;
  },
  read: (key, id) => getInvoice(client(key), id),
});

describe("An invoice too large to store is 400, not a 500 (D1 holds 2,000,000 bytes a row)", () => {
  /** 200 lines of long descriptions, each with 10 custom taxes of long distinct names. */
  const line = (i: number, description: string, nameLength: number) => ({
    description,
    quantity: "1",
    unit_price: "1",
    taxes: Array.from({ length: 10 }, (_, t) => ({
      name: `${"€".repeat(nameLength)}${String(i * 10 + t).padStart(4, "0")}`,
      rate: "10%",
      effect: "added",
    })),
  });

  it("a body within 1 MiB whose invoice would exceed MAX_INVOICE_BYTES (800,000) of JSON → 400 param lines, writing nothing", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    const body = {
      type: "simplified",
      lines: Array.from({ length: 200 }, (_, i) => line(i, "€".repeat(900), 60)),
    };
    expect(new TextEncoder().encode(JSON.stringify(body)).byteLength).toBeLessThan(1024 * 1024);
    const before = await dbSnapshot();
    const res = await api.post("/v1/invoices", body);
    expectError(res, 400, "parameter_invalid", "lines");
    expect(res.body.error.message).toContain("too large to store");
    expect(await dbSnapshot()).toBe(before);
  });

  it("the same shape with shorter texts is issued: 200 lines and 2,000 breakdown rows", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    const inv = await issue(api, {
      type: "simplified",
      lines: Array.from({ length: 200 }, (_, i) => line(i, "Servicio", 8)),
    });
    expect(inv.lines).toHaveLength(200);
    expect(inv.tax_breakdown).toHaveLength(2000);
  });
});
