/**
 * invoices.md, "Issuing", "Taxes on a line", "Arithmetic" and "The invoice object": what
 * POST /v1/invoices issues on `es` and `global` accounts, to the cent. Every expected value
 * below is computed by hand from the spec and the published catalog.
 */
import { describe, expect, it } from "vitest";
import { client } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, createCustomer, createInstruction } from "../../helpers/factories";
import {
  esAddress,
  esIssuer,
  getInvoice,
  type Invoice,
  type IssuerSetup,
  issue,
  ivaLine,
  workedLine,
} from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

const IVA_NAME = "Impuesto sobre el Valor Añadido (IVA)";
const IRPF_NAME = "Impuesto sobre la Renta de las Personas Físicas (IRPF)";
const RE_NAME = "Recargo de equivalencia";

/** A fresh `global` account (no issuer profile) and a customer without an address. */
async function globalSetup(): Promise<IssuerSetup> {
  const account = await createAccount({ taxRegime: "global", name: "Globex Ltd" });
  const api = client(account.testKey);
  const customer = await createCustomer(api, {
    name: "Initech Inc",
    tax_id: { country: "US", type: "local", value: "US123456" },
  });
  return { account, api, customer };
}

const custom = (name: string, rate: string, effect: "added" | "withheld") => ({ name, rate, effect });
const line = (unit_price: string, taxes: unknown[], quantity = "1") => ({
  description: "Item",
  quantity,
  unit_price,
  taxes,
});

/** An `es` line with the given catalog taxes (`[tax, rule]` pairs). */
const esLine = (unit_price: string, ...taxes: [string, string][]) =>
  line(
    unit_price,
    taxes.map(([tax, rule]) => ({ tax, rule })),
  );

/** The parts of a breakdown row a test computes by hand. */
const row = (r: Invoice["tax_breakdown"][number]) => ({
  tax: r.tax,
  rule: r.rule,
  name: r.name,
  treatment: r.treatment,
  effect: r.effect,
  rate: r.rate,
  base: r.base,
  amount: r.amount,
});

const totals = (inv: Invoice) => ({
  subtotal: inv.subtotal,
  total_tax_added: inv.total_tax_added,
  total_tax_withheld: inv.total_tax_withheld,
  total: inv.total,
  amount_payable: inv.amount_payable,
});

describe("Issuing an invoice: POST /v1/invoices → 201", () => {
  it("the invoice object has every field of invoices.md's example, with the issuer, customer and payment snapshots", async () => {
    freezeAt("2026-11-23T10:00:00.000Z");
    const { account, api, customer } = await esIssuer({
      email: "facturas@cliente.example",
      phone: "+34600000000",
    });
    const pmi = await createInstruction(api);
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [workedLine],
      payment_terms: { due_date: "2026-12-23", options: [pmi.id] },
      notes: "Gracias por su confianza.",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toStrictEqual({
      id: expect.stringMatching(/^inv_[0-9A-HJKMNP-TV-Z]{26}$/),
      object: "invoice",
      live: false,
      type: "ordinary",
      status: "issued",
      number: "INV-0001",
      series: "INV",
      numbering: "series",
      issue_date: "2026-11-23",
      operation_date: null,
      currency: "EUR",
      issuer: {
        name: "Emisora Ejemplo SL",
        tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
        address: {
          line_1: "Calle Mayor 1",
          line_2: null,
          city: "Madrid",
          postal_code: "28013",
          state: null,
          country: "ES",
        },
        einvoicing: { peppol_id: null },
      },
      customer: {
        id: customer.id,
        name: "Cliente Ejemplo SA",
        tax_id: { id: customer.tax_id.id, country: "ES", type: "es_nif", value: "A58818501" },
        email: "facturas@cliente.example",
        phone: "+34600000000",
        address: { ...esAddress, line_2: null, state: null },
        einvoicing: { peppol_id: null, dir3: null },
      },
      lines: [
        {
          description: "Consulting",
          quantity: "3",
          unit_code: "C62",
          unit_price: "33.333",
          amount: "100.00",
          taxes: [
            {
              tax: "iva",
              rule: "general",
              name: IVA_NAME,
              treatment: "taxable",
              effect: "added",
              rate: "21%",
              authority_code: "S1",
            },
            {
              tax: "irpf",
              rule: "professional",
              name: IRPF_NAME,
              treatment: "taxable",
              effect: "withheld",
              rate: "15%",
              authority_code: null,
            },
          ],
        },
      ],
      tax_breakdown: [
        {
          tax: "iva",
          rule: "general",
          name: IVA_NAME,
          description: "IVA general rate",
          treatment: "taxable",
          effect: "added",
          rate: "21%",
          authority_code: "S1",
          legal_reference: "Ley 37/1992, art. 90; RDL 20/2012",
          base: "100.00",
          amount: "21.00",
        },
        {
          tax: "irpf",
          rule: "professional",
          name: IRPF_NAME,
          description: "IRPF withholding, professional activities",
          treatment: "taxable",
          effect: "withheld",
          rate: "15%",
          authority_code: null,
          legal_reference: "Ley 35/2006, art. 101; RDL 9/2015",
          base: "100.00",
          amount: "15.00",
        },
      ],
      subtotal: "100.00",
      total_tax_added: "21.00",
      total_tax_withheld: "15.00",
      total: "121.00",
      amount_payable: "106.00",
      // lifecycle.md: issued, nothing paid yet, due in a month.
      payment_status: "unpaid",
      amount_paid: "0.00",
      amount_remaining: "106.00",
      paid_on: null,
      overdue: false,
      payment_terms: {
        due_date: "2026-12-23",
        options: [
          {
            payment_instruction: pmi.id,
            type: "bank_transfer",
            bank_transfer: {
              beneficiary: "Acme Servicios SL",
              iban: "ES9121000418450200051332",
              bic: "CAIXESBBXXX",
            },
            reference: "INV-0001",
          },
        ],
      },
      corrects: null,
      corrected_by: [],
      notes: "Gracias por su confianza.",
      voided_at: null,
      void_reason: null,
      verifactu: {
        status: "pending",
        hash: null,
        previous_hash: null,
        generated_at: "2026-11-23T10:00:00.000Z",
        qr_url:
          "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=INV-0001&fecha=23-11-2026&importe=121.00",
        errors: [],
        records: [
          {
            id: expect.stringMatching(/^vfr_/),
            kind: "registration",
            status: "pending",
            hash: null,
            previous_hash: null,
            generated_at: "2026-11-23T10:00:00.000Z",
            submitted_at: null,
            csv: null,
            registered_at: null,
            errors: [],
            url: expect.stringMatching(/^\/v1\/invoices\/inv_\w+\/verifactu-records\/vfr_\w+$/),
          },
        ],
        cancellation: null,
      },
      created_at: "2026-11-23T10:00:00.000Z",
    });
    expect(account.id).toMatch(/^acct_/);
  });

  it("the worked example to the cent: 3 × 33.333 with IVA general and IRPF professional → 100.00, 21.00, 15.00, 121.00, 106.00", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, issue_date: "2026-11-23", lines: [workedLine] });
    // 3 × 33.333 = 99.999, rounded half away from zero to 100.00.
    expect(inv.lines[0]?.amount).toBe("100.00");
    expect(inv.tax_breakdown.map(row)).toEqual([
      {
        tax: "iva",
        rule: "general",
        name: IVA_NAME,
        treatment: "taxable",
        effect: "added",
        rate: "21%",
        base: "100.00",
        amount: "21.00",
      },
      {
        tax: "irpf",
        rule: "professional",
        name: IRPF_NAME,
        treatment: "taxable",
        effect: "withheld",
        rate: "15%",
        base: "100.00",
        amount: "15.00",
      },
    ]);
    expect(totals(inv)).toEqual({
      subtotal: "100.00",
      total_tax_added: "21.00",
      total_tax_withheld: "15.00",
      total: "121.00",
      amount_payable: "106.00",
    });
  });

  it("GET /v1/invoices/{id} returns exactly the body POST returned", async () => {
    const { api, customer } = await esIssuer();
    const pmi = await createInstruction(api);
    const post = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [workedLine, ivaLine("-12.5", "reduced"), ivaLine("40", "exempt_art_20")],
      payment_terms: { options: [pmi.id] },
      operation_date: "2026-11-01",
      notes: "Línea uno — “dos” ✓",
    });
    expect(post.status, post.text).toBe(201);
    const get = await api.get(`/v1/invoices/${(post.body as Invoice).id}`);
    expect(get.status, get.text).toBe(200);
    expect(get.body).toStrictEqual(post.body);
  });

  it("quantities and prices read back as canonical decimals (no trailing zeros: '3.000' → '3')", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      lines: [
        { ...ivaLine("33.3330"), quantity: "3.000" },
        { ...ivaLine("-1.50"), quantity: "0.500000" },
        { ...ivaLine("0.000001"), quantity: "1000000000" },
        { ...ivaLine("10"), quantity: "2.5" },
      ],
    });
    expect(inv.lines.map((l) => [l.quantity, l.unit_price, l.amount])).toEqual([
      ["3", "33.333", "100.00"],
      ["0.5", "-1.5", "-0.75"],
      // 1,000,000,000 × 0.000001 = 1000.00
      ["1000000000", "0.000001", "1000.00"],
      ["2.5", "10", "25.00"],
    ]);
    // 100.00 − 0.75 + 1000.00 + 25.00, IVA 21 % of 1124.25 = 236.0925 → 236.09.
    expect(totals(inv)).toEqual({
      subtotal: "1124.25",
      total_tax_added: "236.09",
      total_tax_withheld: "0.00",
      total: "1360.34",
      amount_payable: "1360.34",
    });
  });

  it("notes are optional (null) and read back exactly as sent", async () => {
    const { api, customer } = await esIssuer();
    const without = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(without.notes).toBeNull();
    const notes = `Pedido nº 42 — “urgente” ✓ ${"x".repeat(1900)}`;
    const withNotes = await issue(api, { customer: customer.id, lines: [ivaLine()], notes });
    expect(withNotes.notes).toBe(notes);
    expect((await getInvoice(api, withNotes.id)).notes).toBe(notes);
  });
});

describe("Defaults: type ordinary, series INV/SIM/COR, numbering series, currency EUR, issue_date today", () => {
  it("an invoice with only customer and lines is ordinary, series INV, numbering series, EUR, dated today", async () => {
    freezeAt("2026-06-15T09:30:00.000Z");
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect({
      type: inv.type,
      series: inv.series,
      numbering: inv.numbering,
      number: inv.number,
      currency: inv.currency,
      issue_date: inv.issue_date,
      operation_date: inv.operation_date,
      payment_terms: inv.payment_terms,
    }).toEqual({
      type: "ordinary",
      series: "INV",
      numbering: "series",
      number: "INV-0001",
      currency: "EUR",
      issue_date: "2026-06-15",
      operation_date: null,
      payment_terms: { due_date: null, options: [] },
    });
  });

  it("a simplified invoice defaults to series SIM and a corrective one to series COR", async () => {
    const { api, customer } = await esIssuer();
    const simplified = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expect([simplified.series, simplified.number]).toEqual(["SIM", "SIM-0001"]);
    const ordinary = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: ordinary.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expect([corrective.series, corrective.number]).toEqual(["COR", "COR-0001"]);
  });

  it("issue_date defaults to today in Europe/Madrid for an es account (23:30 UTC is already tomorrow in Madrid)", async () => {
    // 2026-11-22 23:30 UTC is 2026-11-23 00:30 in Madrid (CET, UTC+1).
    freezeAt("2026-11-22T23:30:00.000Z");
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(inv.issue_date).toBe("2026-11-23");
    // And "today" in Madrid is not in the future for an es account.
    const explicit = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-23",
      lines: [ivaLine()],
    });
    expect(explicit.issue_date).toBe("2026-11-23");
  });

  it("issue_date defaults to today in UTC for a global account (23:30 UTC is still today)", async () => {
    freezeAt("2026-11-22T23:30:00.000Z");
    const { api, customer } = await globalSetup();
    const inv = await issue(api, { customer: customer.id, lines: [line("10", [])] });
    expect(inv.issue_date).toBe("2026-11-22");
    // The Madrid date is the future for a global account.
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      issue_date: "2026-11-23",
      lines: [line("10", [])],
    });
    expectError(res, 400, "parameter_invalid", "issue_date");
  });
});

describe("Currencies: ISO 4217 minor units, es accounts in EUR only", () => {
  it("currency is uppercased on input", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, currency: "eur", lines: [ivaLine()] });
    expect(inv.currency).toBe("EUR");
  });

  it("an es account cannot issue in another currency: 400 parameter_invalid currency", async () => {
    const { api, customer } = await esIssuer();
    for (const currency of ["USD", "jpy"]) {
      const res = await api.post("/v1/invoices", { customer: customer.id, currency, lines: [ivaLine()] });
      expectError(res, 400, "parameter_invalid", "currency");
    }
  });

  it("a global account issues in JPY with 0 decimals: 1100 + 10 % = '1210'", async () => {
    const { api, customer } = await globalSetup();
    const inv = await issue(api, {
      customer: customer.id,
      currency: "jpy",
      lines: [line("1100", [custom("Consumption tax", "10%", "added")])],
    });
    expect(inv.currency).toBe("JPY");
    expect(inv.lines[0]?.amount).toBe("1100");
    expect(inv.tax_breakdown.map((r) => [r.base, r.amount])).toEqual([["1100", "110"]]);
    expect(totals(inv)).toEqual({
      subtotal: "1100",
      total_tax_added: "110",
      total_tax_withheld: "0",
      total: "1210",
      amount_payable: "1210",
    });
  });

  it("a global account issues in BHD with 3 decimals: 1.1 + 10 % = '1.210'", async () => {
    const { api, customer } = await globalSetup();
    const inv = await issue(api, {
      customer: customer.id,
      currency: "BHD",
      lines: [line("1.1", [custom("VAT", "10%", "added")])],
    });
    expect(inv.lines[0]?.amount).toBe("1.100");
    expect(inv.tax_breakdown.map((r) => [r.base, r.amount])).toEqual([["1.100", "0.110"]]);
    expect(totals(inv)).toEqual({
      subtotal: "1.100",
      total_tax_added: "0.110",
      total_tax_withheld: "0.000",
      total: "1.210",
      amount_payable: "1.210",
    });
  });

  it("an unknown currency is 400 parameter_invalid currency", async () => {
    const { api, customer } = await globalSetup();
    for (const currency of ["XXY", "EURO", "E1"]) {
      const res = await api.post("/v1/invoices", { customer: customer.id, currency, lines: [line("1", [])] });
      expectError(res, 400, "parameter_invalid", "currency");
    }
  });
});

describe("Arithmetic: integer minor units, half away from zero", () => {
  it("a line amount rounds half away from zero to the currency's minor unit (JPY 10.5 → 11, −10.5 → −11)", async () => {
    const { api, customer } = await globalSetup();
    const inv = await issue(api, {
      customer: customer.id,
      currency: "JPY",
      lines: [line("10.5", []), line("-10.5", []), line("0.49", [])],
    });
    expect(inv.lines.map((l) => l.amount)).toEqual(["11", "-11", "0"]);
    expect(inv.subtotal).toBe("0");
  });

  it("a row amount rounds the row's base, not each line: 3 × 0.02 at 21 % is 0.01 (per line it would be 0.00)", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      lines: [ivaLine("0.02"), ivaLine("0.02"), ivaLine("0.02")],
    });
    // 0.06 × 21 % = 0.0126 → 0.01.
    expect(inv.tax_breakdown.map((r) => [r.base, r.amount])).toEqual([["0.06", "0.01"]]);
    expect(inv.total).toBe("0.07");
  });

  it("a row amount rounds half away from zero: 0.50 × 21 % = 0.105 → 0.11, and −0.50 → −0.11", async () => {
    const { api, customer } = await esIssuer();
    const positive = await issue(api, { customer: customer.id, lines: [ivaLine("0.50")] });
    expect([positive.total_tax_added, positive.total]).toEqual(["0.11", "0.61"]);
    const negative = await issue(api, { customer: customer.id, lines: [ivaLine("-0.50")] });
    expect(negative.tax_breakdown.map((r) => [r.base, r.amount])).toEqual([["-0.50", "-0.11"]]);
    expect(totals(negative)).toEqual({
      subtotal: "-0.50",
      total_tax_added: "-0.11",
      total_tax_withheld: "0.00",
      total: "-0.61",
      amount_payable: "-0.61",
    });
  });

  it("tax_breakdown has one row per (tax, rule, rate), in order of first appearance, with the lines' amounts summed", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      lines: [
        esLine("10", ["iva", "reduced"]),
        esLine("20", ["iva", "general"], ["irpf", "professional"]),
        esLine("30", ["iva", "reduced"]),
        esLine("40", ["iva", "general"]),
      ],
    });
    expect(inv.tax_breakdown.map(row)).toEqual([
      {
        tax: "iva",
        rule: "reduced",
        name: IVA_NAME,
        treatment: "taxable",
        effect: "added",
        rate: "10%",
        base: "40.00",
        amount: "4.00",
      },
      {
        tax: "iva",
        rule: "general",
        name: IVA_NAME,
        treatment: "taxable",
        effect: "added",
        rate: "21%",
        base: "60.00",
        amount: "12.60",
      },
      {
        tax: "irpf",
        rule: "professional",
        name: IRPF_NAME,
        treatment: "taxable",
        effect: "withheld",
        rate: "15%",
        base: "20.00",
        amount: "3.00",
      },
    ]);
    expect(totals(inv)).toEqual({
      subtotal: "100.00",
      total_tax_added: "16.60",
      total_tax_withheld: "3.00",
      total: "116.60",
      amount_payable: "113.60",
    });
  });
});

describe("Custom taxes on global accounts: {name, rate, effect}, rows per (name, rate, effect)", () => {
  it("added and withheld custom taxes give one row per (name, rate, effect), in order of first appearance", async () => {
    const { api, customer } = await globalSetup();
    const inv = await issue(api, {
      customer: customer.id,
      currency: "USD",
      lines: [
        line("100", [custom("GST", "10%", "added")]),
        line("200", [custom("GST", "10%", "added"), custom("WHT", "5%", "withheld")]),
        // Same name, another rate: its own row.
        line("50", [custom("GST", "5%", "added")]),
        // Same name and rate, another effect: its own row.
        line("10", [custom("GST", "10%", "withheld")]),
      ],
    });
    const customRow = (name: string, rate: string, effect: string, base: string, amount: string) => ({
      tax: null,
      rule: null,
      name,
      description: name,
      treatment: "taxable",
      effect,
      rate,
      authority_code: null,
      legal_reference: null,
      base,
      amount,
    });
    expect(inv.tax_breakdown).toStrictEqual([
      customRow("GST", "10%", "added", "300.00", "30.00"),
      customRow("WHT", "5%", "withheld", "200.00", "10.00"),
      customRow("GST", "5%", "added", "50.00", "2.50"),
      customRow("GST", "10%", "withheld", "10.00", "1.00"),
    ]);
    expect(inv.lines[1]?.taxes).toStrictEqual([
      {
        tax: null,
        rule: null,
        name: "GST",
        treatment: "taxable",
        effect: "added",
        rate: "10%",
        authority_code: null,
      },
      {
        tax: null,
        rule: null,
        name: "WHT",
        treatment: "taxable",
        effect: "withheld",
        rate: "5%",
        authority_code: null,
      },
    ]);
    expect(totals(inv)).toEqual({
      subtotal: "360.00",
      total_tax_added: "32.50",
      total_tax_withheld: "11.00",
      total: "392.50",
      amount_payable: "381.50",
    });
  });

  it("custom rates read back canonical, so '10.50%' and '10.5%' are one row; 0 % and 100 % are accepted", async () => {
    const { api, customer } = await globalSetup();
    const inv = await issue(api, {
      customer: customer.id,
      lines: [
        line("100", [custom("VAT", "10.50%", "added")]),
        line("100", [custom("VAT", "10.5%", "added")]),
        line("100", [custom("Zero", "0%", "added"), custom("All", "100.0000%", "withheld")]),
        line("100", [custom("Fine", "0.0625%", "added")]),
      ],
    });
    expect(inv.tax_breakdown.map((r) => [r.name, r.rate, r.effect, r.base, r.amount])).toEqual([
      ["VAT", "10.5%", "added", "200.00", "21.00"],
      ["Zero", "0%", "added", "100.00", "0.00"],
      ["All", "100%", "withheld", "100.00", "100.00"],
      // 100.00 × 0.0625 % = 0.0625 → 0.06.
      ["Fine", "0.0625%", "added", "100.00", "0.06"],
    ]);
    expect([inv.total, inv.amount_payable]).toEqual(["421.06", "321.06"]);
  });

  it("a global line may carry no taxes at all, and at most 10 custom taxes", async () => {
    const { api, customer } = await globalSetup();
    const ten = Array.from({ length: 10 }, (_, i) => custom(`T${i}`, "1%", "added"));
    const inv = await issue(api, { customer: customer.id, lines: [line("100", []), line("100", ten)] });
    expect(inv.tax_breakdown).toHaveLength(10);
    expect([inv.total_tax_added, inv.total]).toEqual(["10.00", "210.00"]);
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [line("100", [...ten, custom("T10", "1%", "added")])],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.taxes");
  });

  it("a global account cannot reference the es catalog, and an es account cannot supply custom taxes", async () => {
    const g = await globalSetup();
    const onGlobal = await g.api.post("/v1/invoices", { customer: g.customer.id, lines: [ivaLine()] });
    expectError(onGlobal, 400, "parameter_invalid", "lines.0.taxes.0");
    const es = await esIssuer();
    const onEs = await es.api.post("/v1/invoices", {
      customer: es.customer.id,
      lines: [line("100", [{ tax: "iva", rule: "general" }, custom("GST", "10%", "added")])],
    });
    expectError(onEs, 400, "parameter_invalid", "lines.0.taxes.1");
  });
});

describe("Effective-dated taxes: the version in force on the invoice's tax date", () => {
  // An es issue_date is never before 2024-10-28 (issue_date_before_verifactu): earlier
  // versions are reached through operation_date, the supply date IVA and recargo resolve on.
  it("operation_date 2012-08-31 applies IVA general 18 %, IRPF resolving on issue_date", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      issue_date: "2024-10-28",
      operation_date: "2012-08-31",
      lines: [workedLine],
    });
    expect(inv.tax_breakdown.map((r) => [r.tax, r.rate, r.amount])).toEqual([
      ["iva", "18%", "18.00"],
      ["irpf", "15%", "15.00"],
    ]);
    expect(inv.tax_breakdown[0]?.legal_reference).toBe("Ley 37/1992, art. 90; Ley 26/2009");
    expect([inv.total, inv.amount_payable]).toEqual(["118.00", "103.00"]);
  });

  it("operation_date 2012-09-01 applies IVA general 21 %", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      issue_date: "2024-10-28",
      operation_date: "2012-09-01",
      lines: [workedLine],
    });
    expect(inv.tax_breakdown.map((r) => [r.tax, r.rate, r.amount])).toEqual([
      ["iva", "21%", "21.00"],
      ["irpf", "15%", "15.00"],
    ]);
    expect([inv.total, inv.amount_payable]).toEqual(["121.00", "106.00"]);
  });

  it("operation_date moves IVA and recargo to the supply date, while IRPF resolves on issue_date", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      issue_date: "2024-10-28",
      operation_date: "2012-08-31",
      lines: [
        esLine("100", ["iva", "general"], ["recargo_equivalencia", "general"], ["irpf", "professional"]),
      ],
    });
    expect(inv.operation_date).toBe("2012-08-31");
    expect(inv.issue_date).toBe("2024-10-28");
    expect(inv.tax_breakdown.map((r) => [r.tax, r.rate, r.amount])).toEqual([
      ["iva", "18%", "18.00"],
      ["recargo_equivalencia", "4%", "4.00"],
      ["irpf", "15%", "15.00"],
    ]);
    // 100.00 + 18.00 + 4.00 = 122.00; − 15.00 withheld = 107.00.
    expect([inv.total, inv.amount_payable]).toEqual(["122.00", "107.00"]);
  });

  it("IRPF resolves on issue_date even when operation_date is before the rule existed", async () => {
    const { api, customer } = await esIssuer();
    // irpf/capital is in force from 2015-01-01: the 2014 operation date does not matter for it.
    const inv = await issue(api, {
      customer: customer.id,
      issue_date: "2024-10-28",
      operation_date: "2014-12-31",
      lines: [esLine("100", ["iva", "general"], ["irpf", "capital"])],
    });
    expect(inv.tax_breakdown.map((r) => [r.tax, r.rule, r.rate])).toEqual([
      ["iva", "general", "21%"],
      ["irpf", "capital", expect.stringMatching(/%$/)],
    ]);
  });

  it("a rule not in force on the date is 400 lines.<i>.taxes.<j>.rule with the resolver's message (a temporary rule after its end)", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      issue_date: "2026-11-23",
      lines: [ivaLine(), esLine("10", ["iva", "food_basic_temporary"])],
    });
    expectError(res, 400, "parameter_invalid", "lines.1.taxes.0.rule");
    expect(res.body.error.message).toBe(
      "Rule 'food_basic_temporary' of tax 'iva' in regime 'es' is not in force on 2026-11-23 (in force 2023-01-01 → 2024-12-31).",
    );
  });

  it("the same temporary rule within its period applies that period's rate", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      issue_date: "2024-12-31",
      lines: [esLine("100", ["iva", "food_basic_temporary"])],
    });
    expect(inv.tax_breakdown.map((r) => [r.rule, r.rate, r.amount])).toEqual([
      ["food_basic_temporary", "2%", "2.00"],
    ]);
  });

  it("a rule before its first version is 400 too (IVA general did not exist in 1992)", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      operation_date: "1992-12-31",
      lines: [ivaLine()],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.taxes.0.rule");
    expect(res.body.error.message).toContain("not in force on 1992-12-31");
  });
});

describe("Catalog taxes on es lines: exactly one iva, at most one entry per tax", () => {
  it("an unknown tax is 400 on .tax and an unknown rule 400 on .rule, with the resolver's message", async () => {
    const { api, customer } = await esIssuer();
    const tax = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [esLine("1", ["iva", "general"], ["vat", "general"])],
    });
    expectError(tax, 400, "parameter_invalid", "lines.0.taxes.1.tax");
    expect(tax.body.error.message).toContain("Unknown tax 'vat'");
    const rule = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [ivaLine(), ivaLine(), ivaLine(), esLine("1", ["iva", "general"], ["irpf", "nope"])],
    });
    expectError(rule, 400, "parameter_invalid", "lines.3.taxes.1.rule");
    expect(rule.body.error.message).toContain("Unknown rule 'nope' for tax 'irpf'");
  });

  it("a line without an iva entry is 400 lines.<i>.taxes", async () => {
    const { api, customer } = await esIssuer();
    for (const taxes of [[], [{ tax: "irpf", rule: "professional" }]]) {
      const res = await api.post("/v1/invoices", { customer: customer.id, lines: [line("1", taxes)] });
      expectError(res, 400, "parameter_invalid", "lines.0.taxes");
    }
  });

  it("a second entry of one tax on a line is 400 on the second entry's .tax", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [esLine("1", ["iva", "general"], ["irpf", "professional"], ["iva", "reduced"])],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.taxes.2.tax");
  });
});

describe("recargo_equivalencia: the same rule id as the line's iva, which must be taxable", () => {
  it("recargo is added on top of IVA at its own rate (general 21 % + 5.2 %, reduced 10 % + 1.4 %)", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-23",
      lines: [
        esLine("100", ["iva", "general"], ["recargo_equivalencia", "general"]),
        // Recargo may come before the iva entry.
        esLine("50", ["recargo_equivalencia", "reduced"], ["iva", "reduced"]),
      ],
    });
    expect(inv.tax_breakdown.map((r) => [r.tax, r.rule, r.name, r.effect, r.rate, r.base, r.amount])).toEqual(
      [
        ["iva", "general", IVA_NAME, "added", "21%", "100.00", "21.00"],
        ["recargo_equivalencia", "general", RE_NAME, "added", "5.2%", "100.00", "5.20"],
        ["recargo_equivalencia", "reduced", RE_NAME, "added", "1.4%", "50.00", "0.70"],
        ["iva", "reduced", IVA_NAME, "added", "10%", "50.00", "5.00"],
      ],
    );
    expect(totals(inv)).toEqual({
      subtotal: "150.00",
      total_tax_added: "31.90",
      total_tax_withheld: "0.00",
      total: "181.90",
      amount_payable: "181.90",
    });
  });

  it("a recargo rule other than the line's iva rule is 400 on the recargo entry's .rule", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [esLine("100", ["iva", "general"], ["recargo_equivalencia", "reduced"])],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.taxes.1.rule");
  });

  it("recargo with a non-taxable iva rule (exempt) is 400 on the recargo entry's .rule", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      lines: [esLine("100", ["iva", "exempt_art_20"], ["recargo_equivalencia", "exempt_art_20"])],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.taxes.1.rule");
  });
});

describe("Exempt, reverse-charge and not-subject rows: base given, amount null", () => {
  it("exempt, reverse_charge and not_subject rows have rate and amount null and add no tax", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, {
      customer: customer.id,
      lines: [
        esLine("100", ["iva", "general"]),
        esLine("50", ["iva", "exempt_art_20"]),
        esLine("30", ["iva", "reverse_charge"]),
        esLine("20", ["iva", "not_subject_location"]),
        esLine("5", ["iva", "exempt_art_20"]),
      ],
    });
    expect(
      inv.tax_breakdown.map((r) => [r.rule, r.treatment, r.rate, r.authority_code, r.base, r.amount]),
    ).toEqual([
      ["general", "taxable", "21%", "S1", "100.00", "21.00"],
      ["exempt_art_20", "exempt", null, "E1", "55.00", null],
      ["reverse_charge", "reverse_charge", null, "S2", "30.00", null],
      ["not_subject_location", "not_subject", null, "N2", "20.00", null],
    ]);
    expect(inv.lines[1]?.taxes).toEqual([
      {
        tax: "iva",
        rule: "exempt_art_20",
        name: IVA_NAME,
        treatment: "exempt",
        effect: "added",
        rate: null,
        authority_code: "E1",
      },
    ]);
    expect(totals(inv)).toEqual({
      subtotal: "205.00",
      total_tax_added: "21.00",
      total_tax_withheld: "0.00",
      total: "226.00",
      amount_payable: "226.00",
    });
  });
});

/** Stops the app's clock at `iso` for the rest of the running test. */
function freezeAt(iso: string): void {
  useClock(Date.parse(iso));
}
