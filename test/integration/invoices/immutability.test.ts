/**
 * Issued invoices and sealed VERI*FACTU records are fiscal records: the database itself refuses
 * to delete them or change what they say (migration 0033), whatever the code above it does, as
 * it does for the ledger. Drafts stay free, and the lifecycle (payments, void, overdue,
 * corrections, VERI*FACTU settlement, PDFs) changes only the columns it owns; its flows are
 * tested in invoices/, payments/ and verifactu/, all on these triggers.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectStatus } from "../../helpers/api";
import { esIssuer, issue, ivaLine } from "../../helpers/invoices";
import { runSubmissions } from "../../helpers/verifactu";

const run = (statement: string, ...params: unknown[]) =>
  env.DB.prepare(statement)
    .bind(...params)
    .run();

async function issued() {
  const { account, api, customer } = await esIssuer();
  const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
  return { account, api, customer, invoice };
}

describe("an issued invoice is immutable in the database", () => {
  it("deleting an issued invoice row is refused by the database", async () => {
    const { invoice } = await issued();
    await expect(run("DELETE FROM invoices WHERE id = ?", invoice.id)).rejects.toThrow(/invoice_immutable/);
    const row = await env.DB.prepare("SELECT id FROM invoices WHERE id = ?").bind(invoice.id).first();
    expect(row).toEqual({ id: invoice.id });
  });

  it.each([
    ["number", "'F-999'"],
    ["counter", "counter + 1"],
    ["series", "'Z'"],
    ["total", "total + 1"],
    ["subtotal", "0"],
    ["amount_payable", "1"],
    ["lines", "'[]'"],
    ["tax_breakdown", "'[]'"],
    ["issuer", `json_set(issuer, '$.name', 'Another SL')`],
    ["customer", `json_set(customer, '$.name', 'Another SA')`],
    ["customer_id", "NULL"],
    ["issue_date", "'2020-01-01'"],
    ["operation_date", "'2020-01-01'"],
    ["currency", "'USD'"],
    ["payment_terms", `json_set(payment_terms, '$.due_date', '2099-01-01')`],
    ["due_date", "'2099-01-01'"],
    ["notes", "'changed'"],
    ["live", "1 - live"],
    ["account_id", "'acct_00000000000000000000000000'"],
    ["created_at", "'2020-01-01T00:00:00.000Z'"],
    ["status", "'draft'"],
  ])("changing the fiscal field %s of an issued invoice is refused", async (column, value) => {
    const { invoice } = await issued();
    const before = await env.DB.prepare("SELECT * FROM invoices WHERE id = ?").bind(invoice.id).first();
    await expect(run(`UPDATE invoices SET ${column} = ${value} WHERE id = ?`, invoice.id)).rejects.toThrow(
      /invoice_immutable/,
    );
    expect(await env.DB.prepare("SELECT * FROM invoices WHERE id = ?").bind(invoice.id).first()).toEqual(
      before,
    );
  });

  it("the columns the lifecycle owns still change: payment, overdue, void, corrections, PDF, VERI*FACTU summary, archive", async () => {
    const { invoice } = await issued();
    await run(
      `UPDATE invoices SET payment_status = 'partially_paid', amount_paid = 1, paid_on = '2026-01-02',
         overdue_at = '2026-02-01T00:00:00.000Z', corrected_by = '["inv_x"]', pdf_generated_at = NULL,
         pdf_swept_at = '2026-02-01T00:00:00.000Z', verifactu_status = 'accepted', verifactu_records = '[]',
         archived_at = '2026-02-01T00:00:00.000Z' WHERE id = ?`,
      invoice.id,
    );
    await run(
      "UPDATE invoices SET status = 'void', voided_at = '2026-02-02T00:00:00.000Z', void_reason = 'x' WHERE id = ?",
      invoice.id,
    );
    // A void invoice stays void and stays.
    await expect(run("UPDATE invoices SET status = 'issued' WHERE id = ?", invoice.id)).rejects.toThrow(
      /invoice_immutable/,
    );
    await expect(run("DELETE FROM invoices WHERE id = ?", invoice.id)).rejects.toThrow(/invoice_immutable/);
  });

  it("a draft can still be edited, deleted and finalized (which replaces its row under the same id)", async () => {
    const { api, customer } = await esIssuer();
    const draft = (await api.post("/v1/invoices", { draft: true, customer: customer.id, lines: [ivaLine()] }))
      .body as {
      id: string;
    };
    await run("UPDATE invoices SET notes = 'raw edit', total = 5 WHERE id = ?", draft.id);
    expectStatus(await api.patch(`/v1/invoices/${draft.id}`, { notes: "Edited" }), 200);
    expectStatus(await api.post(`/v1/invoices/${draft.id}/finalize`), 200);
    const other = (await api.post("/v1/invoices", { draft: true, customer: customer.id, lines: [ivaLine()] }))
      .body as {
      id: string;
    };
    expectStatus(await api.del(`/v1/invoices/${other.id}`), 200);
  });
});

describe("a VERI*FACTU record is immutable once sealed", () => {
  it("a sealed VERI*FACTU record cannot change what it says nor be deleted; its submission state still moves", async () => {
    const { account, invoice } = await issued();
    await runSubmissions({ accountId: account.id, live: false });
    const row = await env.DB.prepare("SELECT * FROM verifactu_records WHERE invoice_id = ?")
      .bind(invoice.id)
      .first<{ id: string; hash: string | null; record: string }>();
    expect(row?.hash).toEqual(expect.any(String));
    const id = row?.id;
    for (const change of [
      `record = json_set(record, '$.ImporteTotal', '1.00')`,
      "hash = 'x'",
      "seq = seq + 100",
      "invoice_id = 'inv_x'",
      "generated_at = generated_at + 1",
    ]) {
      await expect(run(`UPDATE verifactu_records SET ${change} WHERE id = ?`, id)).rejects.toThrow(
        /verifactu_record_immutable/,
      );
    }
    await expect(run("DELETE FROM verifactu_records WHERE id = ?", id)).rejects.toThrow(
      /verifactu_record_immutable/,
    );
    await run(
      "UPDATE verifactu_records SET status = 'accepted', attempts = attempts + 1, errors = '[]' WHERE id = ?",
      id,
    );
    expect(
      (await env.DB.prepare("SELECT record FROM verifactu_records WHERE id = ?").bind(id).first())?.record,
    ).toBe(row?.record);
  });
});
