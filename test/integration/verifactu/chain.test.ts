/**
 * verifactu-system.md §1, §2, §6: registrations, subsanaciones and cancellations form one chain
 * per issuer NIF and environment. A chain of 50 concurrent issues with 5 voids and 5
 * resubmissions interleaved verifies end to end: consecutive places, each record's Huella
 * recomputed from its own XML as AEAT does, each link the previous record's Huella, times that
 * never go backwards.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cancellationHash, recordHash } from "../../../src/verifactu/hash";
import { type ApiClient, expectStatus } from "../../helpers/api";
import { esProfile, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { esAccount, runSubmissions } from "../../helpers/verifactu";

const field = (xml: string, name: string) =>
  new RegExp(`<sf:${name}>([^<]*)</sf:${name}>`).exec(xml)?.[1] ?? "";

/** A record's Huella recomputed from its XML, by its kind (AEAT's hash specification). */
function hashOfXml(xml: string): Promise<string> {
  const link = xml.slice(xml.indexOf("<sf:Encadenamiento>"), xml.indexOf("</sf:Encadenamiento>"));
  const common = {
    Huella: field(link, "Huella"),
    FechaHoraHusoGenRegistro: field(xml, "FechaHoraHusoGenRegistro"),
  };
  if (xml.includes("<sf:RegistroAnulacion>")) {
    return cancellationHash({
      IDEmisorFacturaAnulada: field(xml, "IDEmisorFacturaAnulada"),
      NumSerieFacturaAnulada: field(xml, "NumSerieFacturaAnulada"),
      FechaExpedicionFacturaAnulada: field(xml, "FechaExpedicionFacturaAnulada"),
      ...common,
    });
  }
  const id = xml.slice(xml.indexOf("<sf:IDFactura>"), xml.indexOf("</sf:IDFactura>"));
  return recordHash({
    IDEmisorFactura: field(id, "IDEmisorFactura"),
    NumSerieFactura: field(id, "NumSerieFactura"),
    FechaExpedicionFactura: field(id, "FechaExpedicionFactura"),
    TipoFactura: field(xml, "TipoFactura"),
    CuotaTotal: field(xml, "CuotaTotal"),
    ImporteTotal: field(xml, "ImporteTotal"),
    ...common,
  });
}

const post = async (api: ApiClient, path: string, body: unknown) => {
  const res = await api.post(path, body);
  expectStatus(res, 200);
};

describe("one chain per issuer NIF and environment", () => {
  it("50 concurrent issues with 5 voids and 5 resubmissions interleaved form one chain that verifies end to end", async () => {
    // Issuer 99999999R: the sandbox rejects registrations and accepts subsanaciones.
    const { api, chain } = await esAccount({
      ...esProfile,
      tax_id: { country: "ES", type: "es_nif", value: "99999999R" },
    });
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        issue(api, { type: "simplified", lines: [ivaLine(String(i + 1))] }),
      ),
    );
    await runSubmissions(chain);
    await Promise.all([
      ...Array.from({ length: 30 }, (_, i) =>
        issue(api, { type: "simplified", lines: [ivaLine(String(i + 21))] }),
      ),
      ...first
        .slice(0, 5)
        .map((inv) => post(api, `/v1/invoices/${inv.id}/void`, { reason: "Issued by mistake" })),
      ...first.slice(5, 10).map((inv) => post(api, `/v1/invoices/${inv.id}/verifactu/resubmit`, {})),
    ]);
    for (let round = 0; round < 5; round++) await runSubmissions(chain);

    const rows = (
      await env.DB.prepare(
        "SELECT id, invoice_id, kind, seq, generated_at, status FROM verifactu_records WHERE account_id = ? AND live = 0 ORDER BY seq",
      )
        .bind(chain.accountId)
        .all<{
          id: string;
          invoice_id: string;
          kind: string;
          seq: number;
          generated_at: number;
          status: string;
        }>()
    ).results;
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.kind === "cancellation")).toHaveLength(5);
    expect(rows.filter((r) => r.kind === "subsanacion").map((r) => r.status)).toEqual(
      Array(5).fill("accepted"),
    );
    expect(rows.every((r) => r.status !== "pending")).toBe(true);

    let previous = "";
    let previousAt = 0;
    for (const row of rows) {
      const xml = (await api.get(`/v1/invoices/${row.invoice_id}/verifactu-records/${row.id}`)).text;
      const link = xml.slice(xml.indexOf("<sf:Encadenamiento>"), xml.indexOf("</sf:Encadenamiento>"));
      if (row.seq === 1) expect(link).toContain("<sf:PrimerRegistro>S</sf:PrimerRegistro>");
      else expect(field(link, "Huella")).toBe(previous);
      const own = /<sf:TipoHuella>01<\/sf:TipoHuella><sf:Huella>([0-9A-F]{64})<\/sf:Huella>/.exec(xml)?.[1];
      expect(await hashOfXml(xml)).toBe(own);
      expect(row.generated_at).toBeGreaterThanOrEqual(previousAt);
      previous = own ?? "";
      previousAt = row.generated_at;
    }
    // Each invoice's summary agrees with its records.
    for (const inv of first.slice(0, 10)) {
      const { verifactu } = (await api.get(`/v1/invoices/${inv.id}`)).body as Invoice;
      for (const summary of verifactu?.records ?? []) {
        const row = rows.find((r) => r.id === summary.id);
        expect(summary.status).toBe(row?.status);
      }
    }
  });

  it("an account whose issuer NIF changes starts a new chain (PrimerRegistro)", async () => {
    const { api } = await esAccount();
    const before = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const patched = await api.patch("/v1/account", {
      tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
    });
    expectStatus(patched, 200);
    const after = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const xml = (await api.get(`/v1/invoices/${after.id}/verifactu-record`)).text;
    expect(field(xml, "IDEmisorFactura")).toBe("A58818501");
    expect(xml).toContain("<sf:PrimerRegistro>S</sf:PrimerRegistro>");
    expect(before.verifactu?.records).toHaveLength(1);
  });
});
