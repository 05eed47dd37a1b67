/**
 * The record content fixes (issue 28, spec §6): what issuance writes into an `es` invoice's
 * RegistroAlta, read back as the XML sent (`GET …/verifactu-record`), and the first issue date
 * VERI*FACTU takes. Sources: docs/spain-verifactu.md "Record content rules".
 */
import { describe, expect, it } from "vitest";
import { client } from "../../helpers/api";
import { createAccount, createCustomer } from "../../helpers/factories";
import { customerWithAddress, issue, ivaLine } from "../../helpers/invoices";
import { dbSnapshot, expectError } from "../../helpers/security";
import { esAccount } from "../../helpers/verifactu";

async function recordXml(api: Awaited<ReturnType<typeof esAccount>>["api"], id: string): Promise<string> {
  const res = await api.get(`/v1/invoices/${id}/verifactu-record`);
  expect(res.status).toBe(200);
  return res.text;
}

const el = (name: string, value: string) => `<sf:${name}>${value}</sf:${name}>`;

describe("record content rules", () => {
  it("a simplified invoice with a customer is an art. 7.2 F1 with FacturaSimplificadaArt7273 S and Destinatarios; without one, F2", async () => {
    const { api } = await esAccount();
    const customer = await customerWithAddress(api);
    const named = await issue(api, { type: "simplified", customer: customer.id, lines: [ivaLine("10")] });
    const xml = await recordXml(api, named.id);
    expect(xml).toContain(el("TipoFactura", "F1"));
    expect(xml).toContain(el("FacturaSimplificadaArt7273", "S"));
    expect(xml).toContain("<sf:Destinatarios><sf:IDDestinatario>");

    const anonymous = await issue(api, { type: "simplified", lines: [ivaLine("10")] });
    const f2 = await recordXml(api, anonymous.id);
    expect(f2).toContain(el("TipoFactura", "F2"));
    expect(f2).not.toContain("FacturaSimplificadaArt7273");
    expect(f2).not.toContain("Destinatarios");
  });

  it("a corrective writes FechaOperacion, the corrected invoice's operation date, else its issue date", async () => {
    const { api } = await esAccount();
    const customer = await customerWithAddress(api);
    const withOperation = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-02",
      operation_date: "2026-10-30",
      lines: [ivaLine("100")],
    });
    const withoutOperation = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-03",
      lines: [ivaLine("100")],
    });
    const correct = (id: string) =>
      issue(api, { type: "corrective", corrects: { invoice: id, reason: "R4" }, lines: [ivaLine("-10")] });
    const first = await recordXml(api, (await correct(withOperation.id)).id);
    expect(first).toContain(el("FechaOperacion", "30-10-2026"));
    const second = await recordXml(api, (await correct(withoutOperation.id)).id);
    expect(second).toContain(el("FechaOperacion", "03-11-2026"));
  });

  it("recargo de equivalencia charged by a general-regime issuer is ClaveRegimen 01", async () => {
    const { api } = await esAccount();
    const customer = await customerWithAddress(api);
    const invoice = await issue(api, {
      customer: customer.id,
      lines: [
        {
          ...ivaLine("100"),
          taxes: [
            { tax: "iva", rule: "general" },
            { tax: "recargo_equivalencia", rule: "general" },
          ],
        },
      ],
    });
    const xml = await recordXml(api, invoice.id);
    expect(xml).toContain(`${el("ClaveRegimen", "01")}${el("CalificacionOperacion", "S1")}`);
    expect(xml).toContain(el("CuotaRecargoEquivalencia", "5.20"));
    expect(xml).not.toContain(el("ClaveRegimen", "18"));
  });

  it("Macrodato is S when |ImporteTotal| reaches 100,000,000.00 EUR", async () => {
    const { api } = await esAccount();
    const customer = await customerWithAddress(api);
    const large = await issue(api, { customer: customer.id, lines: [ivaLine("82644628.10")] });
    expect(large.total).toBe("100000000.00");
    expect(await recordXml(api, large.id)).toContain(el("Macrodato", "S"));
    const below = await issue(api, { customer: customer.id, lines: [ivaLine("82644628.09")] });
    expect(below.total).toBe("99999999.99");
    expect(await recordXml(api, below.id)).not.toContain("Macrodato");
  });

  it("issue_date_before_verifactu: an es issue date before 2024-10-28 is 400 on issuance and on drafts, nothing written", async () => {
    const { api } = await esAccount();
    const customer = await customerWithAddress(api);
    const body = { customer: customer.id, issue_date: "2024-10-27", lines: [ivaLine()] };
    const before = await dbSnapshot();
    expectError(await api.post("/v1/invoices", body), 400, "issue_date_before_verifactu", "issue_date");
    expectError(
      await api.post("/v1/invoices", { ...body, draft: true }),
      400,
      "issue_date_before_verifactu",
      "issue_date",
    );
    expect(await dbSnapshot()).toEqual(before);
    const first = await issue(api, { ...body, issue_date: "2024-10-28" });
    expect(first.issue_date).toBe("2024-10-28");

    // Outside Spain there is no such floor.
    const global = client((await createAccount({ taxRegime: "global" })).testKey);
    const buyer = await createCustomer(global, {
      name: "Initech Inc",
      tax_id: { country: "US", type: "local", value: "US123456" },
    });
    const old = await issue(global, {
      customer: buyer.id,
      currency: "USD",
      issue_date: "2024-01-02",
      lines: [{ description: "Service", quantity: "1", unit_price: "10", taxes: [] }],
    });
    expect(old.issue_date).toBe("2024-01-02");
  });
});
