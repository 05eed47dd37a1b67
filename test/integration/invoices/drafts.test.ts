/**
 * lifecycle.md, "Drafts": a draft is a preview (taxes and totals computed) that consumes no
 * number and writes no record, debit or stored PDF; finalize runs exactly the issuance.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sweepMissingPdfs } from "../../../src/invoices/pdf/sweep";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount } from "../../helpers/factories";
import {
  customerWithAddress,
  esIssuer,
  getInvoice,
  type Invoice,
  issue,
  ivaLine,
  setProfile,
  workedLine,
} from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

const NOW = Date.UTC(2026, 10, 23, 10, 0, 0);

async function draft(api: ApiClient, body: Record<string, unknown>): Promise<Invoice> {
  const res = await api.post("/v1/invoices", { draft: true, ...body });
  expectStatus(res, 201);
  return res.body as Invoice;
}

async function eventTypes(api: ApiClient, id: string): Promise<string[]> {
  const res = await api.get(`/v1/events?related_object=${id}`);
  expectStatus(res, 200);
  return (res.body as { data: { type: string }[] }).data.map((e) => e.type).reverse();
}

async function balanceTransactions(api: ApiClient): Promise<number> {
  const res = await api.get("/v1/balance-transactions");
  expectStatus(res, 200);
  return (res.body as { data: unknown[] }).data.length;
}

async function storedPdfs(invoiceId: string): Promise<number> {
  const listed = await env.PDFS.list();
  return listed.objects.filter((o) => o.key.includes(invoiceId)).length;
}

describe("Drafts (lifecycle.md)", () => {
  it("a draft is a preview: 201, status draft, number null, taxes and totals computed", async () => {
    useClock(NOW);
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, issue_date: "2026-11-23", lines: [workedLine] });
    expect(d).toMatchObject({
      object: "invoice",
      status: "draft",
      number: null,
      issue_date: "2026-11-23",
      subtotal: "100.00",
      total: "121.00",
      amount_payable: "106.00",
      payment_status: null,
      amount_paid: null,
      amount_remaining: null,
      paid_on: null,
      overdue: false,
      verifactu: null,
    });
    expect(d.tax_breakdown.map((r) => r.amount)).toEqual(["21.00", "15.00"]);
    expect(await getInvoice(api, d.id)).toEqual(d);
  });

  it("a draft consumes no number and writes no VERI*FACTU record, debit or stored PDF", async () => {
    useClock(NOW);
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [ivaLine()] });
    expect(await balanceTransactions(api)).toBe(0);
    expect(await storedPdfs(d.id)).toBe(0);
    const row = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM verifactu_records WHERE invoice_id = invoices.id) AS records, number FROM invoices WHERE id = ?",
    )
      .bind(d.id)
      .first<{ records: number; number: string }>();
    expect(row).toEqual({ records: 0, number: "" });
    // The series' first number is still free.
    expect((await issue(api, { customer: customer.id, lines: [ivaLine()] })).number).toBe("INV-0001");
  });

  it("a draft's issue_date may be omitted (it reads back null); a future one is refused as on an issuance", async () => {
    useClock(NOW);
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [ivaLine()] });
    expect(d.issue_date).toBeNull();
    const res = await api.post("/v1/invoices", {
      draft: true,
      customer: customer.id,
      issue_date: "2026-11-24",
      lines: [ivaLine()],
    });
    expectError(res, 400, "parameter_invalid", "issue_date");
  });

  it("a draft's references must exist: customer, payment instructions, the corrected invoice", async () => {
    const { api, customer } = await esIssuer();
    const cases: [Record<string, unknown>, string][] = [
      [{ customer: "cus_00000000000000000000000000" }, "customer"],
      [
        { customer: customer.id, payment_terms: { options: ["pmi_00000000000000000000000000"] } },
        "payment_terms.options.0",
      ],
      [
        { type: "corrective", corrects: { invoice: "inv_00000000000000000000000000", reason: "R1" } },
        "corrects.invoice",
      ],
    ];
    for (const [body, param] of cases) {
      expectError(
        await api.post("/v1/invoices", { draft: true, lines: [ivaLine()], ...body }),
        400,
        "parameter_invalid",
        param,
      );
    }
  });

  it("issuance-only rules are not checked on a draft, and finalize refuses with each, leaving the draft unchanged", async () => {
    useClock(NOW);
    // An es account without a profile, a customer without an address, a simplified invoice over
    // the limit, a series bound to another type, a date before the series' last, options on a
    // zero invoice.
    const account = await createAccount({ taxRegime: "es" });
    const api = client(account.testKey);
    const bare = (
      await api.post("/v1/customers", {
        name: "Sin dirección",
        tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
      })
    ).body;
    const noProfile = await draft(api, { customer: bare.id, lines: [ivaLine()] });
    expectError(
      await api.post(`/v1/invoices/${noProfile.id}/finalize`),
      400,
      "account_profile_incomplete",
      "account.legal_name",
    );
    expect(await getInvoice(api, noProfile.id)).toEqual(noProfile);

    await setProfile(api);
    expectError(
      await api.post(`/v1/invoices/${noProfile.id}/finalize`),
      400,
      "customer_address_required",
      "customer",
    );
    expect((await getInvoice(api, noProfile.id)).status).toBe("draft");

    const over = await draft(api, { type: "simplified", lines: [ivaLine("3000")] });
    expectError(
      await api.post(`/v1/invoices/${over.id}/finalize`),
      400,
      "simplified_limit_exceeded",
      "lines",
    );

    const withAddress = await customerWithAddress(api);
    await issue(api, { customer: withAddress.id, series: "B", issue_date: "2026-11-23", lines: [ivaLine()] });
    const bound = await draft(api, { type: "simplified", series: "B", lines: [ivaLine()] });
    expectError(await api.post(`/v1/invoices/${bound.id}/finalize`), 400, "series_mismatch", "series");
    const early = await draft(api, {
      customer: withAddress.id,
      series: "B",
      issue_date: "2026-11-20",
      lines: [ivaLine()],
    });
    expectError(
      await api.post(`/v1/invoices/${early.id}/finalize`),
      400,
      "issue_date_out_of_order",
      "issue_date",
    );

    const pmi = (
      await api.post("/v1/payment-instructions", {
        label: "Banco",
        type: "bank_transfer",
        bank_transfer: { beneficiary: "Emisora", iban: "ES9121000418450200051332" },
      })
    ).body;
    const zero = await draft(api, {
      customer: withAddress.id,
      lines: [ivaLine("0")],
      payment_terms: { options: [pmi.id] },
    });
    expectError(
      await api.post(`/v1/invoices/${zero.id}/finalize`),
      400,
      "payment_terms_not_applicable",
      "payment_terms.options",
    );

    for (const d of [over, bound, early, zero]) expect(await getInvoice(api, d.id)).toEqual(d);
    expect(await balanceTransactions(api)).toBe(1);
  });

  it("PATCH edits a draft: lines replace the list, null clears an optional field, totals are recomputed", async () => {
    useClock(NOW);
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [ivaLine("100")], notes: "Borrador" });
    const res = await api.patch(`/v1/invoices/${d.id}`, {
      lines: [ivaLine("200"), ivaLine("50", "reduced")],
      notes: null,
    });
    expectStatus(res, 200);
    const edited = res.body as Invoice;
    expect(edited).toMatchObject({
      id: d.id,
      status: "draft",
      notes: null,
      subtotal: "250.00",
      total: "297.00",
      created_at: d.created_at,
    });
    expect(edited.lines).toHaveLength(2);
    expect(await getInvoice(api, d.id)).toEqual(edited);
    expect(await eventTypes(api, d.id)).toEqual(["invoice.created", "invoice.updated"]);
  });

  it("DELETE deletes a draft: 200 {id, object, deleted: true}, and invoice.deleted shows it", async () => {
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [ivaLine()] });
    const res = await api.del(`/v1/invoices/${d.id}`);
    expectStatus(res, 200);
    expect(res.body).toEqual({ id: d.id, object: "invoice", deleted: true });
    expectError(await api.get(`/v1/invoices/${d.id}`), 404, "resource_missing");
    expect(await eventTypes(api, d.id)).toEqual(["invoice.created", "invoice.deleted"]);
  });

  it("finalize issues a draft: 200, number assigned, issue_date today when it had none, invoice.issued, a debit, a VERI*FACTU record", async () => {
    useClock(NOW);
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [workedLine] });
    const res = await api.post(`/v1/invoices/${d.id}/finalize`);
    expectStatus(res, 200);
    const issued = res.body as Invoice;
    expect(issued).toMatchObject({
      id: d.id,
      status: "issued",
      number: "INV-0001",
      issue_date: "2026-11-23",
      payment_status: "unpaid",
      amount_paid: "0.00",
    });
    expect(issued.verifactu?.status).toBe("pending");
    expect(await getInvoice(api, d.id)).toEqual(issued);
    expect(await balanceTransactions(api)).toBe(1);
    expect(await eventTypes(api, d.id)).toEqual(["invoice.created", "invoice.issued"]);
  });

  it("a draft finalized and a direct issuance of the same content give the same invoice but for ids and timestamps", async () => {
    useClock(NOW);
    const { api, customer } = await esIssuer();
    const body = { customer: customer.id, issue_date: "2026-11-23", lines: [workedLine], notes: "Igual" };
    const direct = await issue(api, { ...body, series: "A" });
    const d = await draft(api, { ...body, series: "B" });
    const finalized = (await api.post(`/v1/invoices/${d.id}/finalize`)).body as Invoice;
    const comparable = (i: Invoice) => ({
      ...i,
      id: "",
      number: i.number?.replace(/^[AB]-/, ""),
      series: "",
      created_at: "",
      verifactu: i.verifactu && {
        ...i.verifactu,
        generated_at: "",
        hash: null,
        previous_hash: null,
        qr_url: "",
        records: i.verifactu.records.map((r) => ({
          ...r,
          id: "",
          generated_at: "",
          hash: null,
          previous_hash: null,
          url: "",
        })),
      },
    });
    expect(comparable(finalized)).toEqual(comparable(direct));
  });

  it("PATCH, DELETE or finalize on an invoice that is not a draft: 409 invoice_not_draft", async () => {
    const { api, customer } = await esIssuer();
    const issued = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expectError(await api.patch(`/v1/invoices/${issued.id}`, { notes: "x" }), 409, "invoice_not_draft");
    expectError(await api.del(`/v1/invoices/${issued.id}`), 409, "invoice_not_draft");
    expectError(await api.post(`/v1/invoices/${issued.id}/finalize`), 409, "invoice_not_draft");
    expect(await getInvoice(api, issued.id)).toEqual(issued);
  });

  it("two concurrent finalizes of one draft issue it once: one 200, one 409 invoice_not_draft", async () => {
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [ivaLine()] });
    const answers = await Promise.all([1, 2].map(() => api.post(`/v1/invoices/${d.id}/finalize`)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balanceTransactions(api)).toBe(1);
    expect((await issue(api, { customer: customer.id, lines: [ivaLine()] })).number).toBe("INV-0002");
  });

  it("a draft deleted before its finalize is not issued: 404", async () => {
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [ivaLine()] });
    expectStatus(await api.del(`/v1/invoices/${d.id}`), 200);
    expectError(await api.post(`/v1/invoices/${d.id}/finalize`), 404, "resource_missing");
    expect(await balanceTransactions(api)).toBe(0);
  });

  it("a draft's PDF renders on demand and is not stored: no file, no invoice.pdf.generated, the sweep skips it", async () => {
    const clock = useClock(NOW);
    const { api, customer } = await esIssuer();
    const d = await draft(api, { customer: customer.id, lines: [ivaLine()] });
    const res = await api.get(`/v1/invoices/${d.id}/pdf`);
    expectStatus(res, 200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${d.id}-draft.pdf"`);
    clock.advance(60 * 60 * 1000);
    await sweepMissingPdfs(env);
    expect(await storedPdfs(d.id)).toBe(0);
    expect(await eventTypes(api, d.id)).toEqual(["invoice.created"]);
    const swept = await env.DB.prepare("SELECT pdf_swept_at FROM invoices WHERE id = ?").bind(d.id).first();
    expect(swept).toEqual({ pdf_swept_at: null });
  });

  it("lists show drafts with issued invoices", async () => {
    const { api, customer } = await esIssuer();
    const issued = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const d = await draft(api, { customer: customer.id, lines: [ivaLine()] });
    const res = await api.get("/v1/invoices");
    expectStatus(res, 200);
    expect((res.body as { data: Invoice[] }).data.map((i) => i.id)).toEqual([d.id, issued.id]);
  });
});
