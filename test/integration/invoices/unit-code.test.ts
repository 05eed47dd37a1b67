/**
 * invoices.md, "Units": a line's `unit_code` (UN/ECE Recommendation 20), optional, default
 * "C62" (one), stored with the line and returned on every line, drafts too; its 400. Invoices
 * stored before the field (and before the e-invoicing snapshots) read their defaults.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectStatus } from "../../helpers/api";
import { esIssuer, getInvoice, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

describe("a line's unit_code", () => {
  it("is C62 (one) when the line names none", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(invoice.lines.map((l) => l.unit_code)).toEqual(["C62"]);
  });

  it("is stored and returned as sent, line by line", async () => {
    const { api, customer } = await esIssuer();
    const lines = [
      { ...ivaLine(), unit_code: "HUR" },
      { ...ivaLine(), unit_code: "DAY" },
      ivaLine(),
      { ...ivaLine(), unit_code: "KGM" },
    ];
    const invoice = await issue(api, { customer: customer.id, lines });
    expect(invoice.lines.map((l) => l.unit_code)).toEqual(["HUR", "DAY", "C62", "KGM"]);
    expect((await getInvoice(api, invoice.id)).lines).toEqual(invoice.lines);
  });

  it("a code that is not 2 or 3 characters A–Z and 0–9 is 400 on lines.N.unit_code, nothing written", async () => {
    const { api, customer } = await esIssuer();
    for (const unit_code of ["hur", "H", "HOUR", "H-R", "", " C62", null, 62]) {
      const res = await api.post("/v1/invoices", {
        customer: customer.id,
        lines: [ivaLine(), { ...ivaLine(), unit_code }],
      });
      expectError(res, 400, "parameter_invalid", "lines.1.unit_code");
      expect(res.headers.get("D1-Rows-Written")).toBe("0");
    }
  });

  it("drafts carry it: on create, on PATCH (lines replace the list), and when finalized", async () => {
    const { api, customer } = await esIssuer();
    const created = await api.post("/v1/invoices", {
      draft: true,
      customer: customer.id,
      lines: [{ ...ivaLine(), unit_code: "HUR" }, ivaLine()],
    });
    expectStatus(created, 201);
    const draft = created.body as Invoice;
    expect(draft.lines.map((l) => l.unit_code)).toEqual(["HUR", "C62"]);

    const edited = await api.patch(`/v1/invoices/${draft.id}`, {
      lines: [{ ...ivaLine(), unit_code: "DAY" }],
    });
    expectStatus(edited, 200);
    expect((edited.body as Invoice).lines.map((l) => l.unit_code)).toEqual(["DAY"]);
    const refused = await api.patch(`/v1/invoices/${draft.id}`, {
      lines: [{ ...ivaLine(), unit_code: "day" }],
    });
    expectError(refused, 400, "parameter_invalid", "lines.0.unit_code");

    const finalized = await api.post(`/v1/invoices/${draft.id}/finalize`);
    expectStatus(finalized, 200);
    expect((finalized.body as Invoice).lines.map((l) => l.unit_code)).toEqual(["DAY"]);
  });

  it("an invoice stored before unit_code and the einvoicing snapshots reads C62 and einvoicing null", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [{ ...ivaLine(), unit_code: "HUR" }] });
    // The row as an older release wrote it. An issued invoice's content cannot change
    // (migration 0033): its trigger is lifted for this one statement, in one transaction.
    const trigger = await env.DB.prepare(
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'invoices_issued_immutable'",
    ).first<{ sql: string }>();
    await env.DB.batch([
      env.DB.prepare("DROP TRIGGER invoices_issued_immutable"),
      env.DB.prepare(
        `UPDATE invoices SET
           lines = (SELECT json_group_array(json_remove(value, '$.unit_code')) FROM json_each(invoices.lines)),
           issuer = json_remove(issuer, '$.einvoicing'),
           customer = json_remove(customer, '$.einvoicing')
         WHERE id = ?`,
      ).bind(invoice.id),
      env.DB.prepare(trigger?.sql as string),
    ]);
    const old = await getInvoice(api, invoice.id);
    expect(old.lines.map((l) => l.unit_code)).toEqual(["C62"]);
    expect(old.issuer.einvoicing).toBeNull();
    expect(old.customer?.einvoicing).toBeNull();
    expect(old.lines).toEqual(invoice.lines.map((l) => ({ ...l, unit_code: "C62" })));
  });
});
