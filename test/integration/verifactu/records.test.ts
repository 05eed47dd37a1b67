/**
 * VERI*FACTU registration records (compliance.md, issue 12): every invoice of an `es` account
 * gets one in its own batch, chained per account and environment by AEAT's hash, with no fork
 * under concurrent issuing; `GET /v1/invoices/{id}/verifactu-record` shows it as the XML sent.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordHash } from "../../../src/verifactu/hash";
import { client } from "../../helpers/api";
import { createAccount, createCustomer } from "../../helpers/factories";
import { customerWithAddress, type Invoice, issue, ivaLine, setProfile } from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { listEvents } from "../../helpers/reads";
import { dbSnapshot, expectError } from "../../helpers/security";
import { esAccount, recordingRegistry, runSubmissions } from "../../helpers/verifactu";

afterEach(() => {
  vi.restoreAllMocks();
});

/** The record XML's element text, by local name (the first one after `after`, if given). */
function field(xml: string, name: string, after = ""): string | undefined {
  const from = after ? xml.indexOf(after) : 0;
  return new RegExp(`<sf:${name}>([^<]*)</sf:${name}>`).exec(xml.slice(from))?.[1];
}

async function recordXml(api: ReturnType<typeof client>, id: string): Promise<string> {
  const res = await api.get(`/v1/invoices/${id}/verifactu-record`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  return res.text;
}

/** Recomputes a record's Huella from its own XML, as AEAT does. */
async function hashOfXml(xml: string): Promise<string> {
  const chain = xml.slice(xml.indexOf("<sf:Encadenamiento>"), xml.indexOf("</sf:Encadenamiento>"));
  return recordHash({
    IDEmisorFactura: field(xml, "IDEmisorFactura") ?? "",
    NumSerieFactura: field(xml, "NumSerieFactura") ?? "",
    FechaExpedicionFactura: field(xml, "FechaExpedicionFactura") ?? "",
    TipoFactura: field(xml, "TipoFactura") ?? "",
    CuotaTotal: field(xml, "CuotaTotal") ?? "",
    ImporteTotal: field(xml, "ImporteTotal") ?? "",
    Huella: field(chain, "Huella") ?? "",
    FechaHoraHusoGenRegistro: field(xml, "FechaHoraHusoGenRegistro") ?? "",
  });
}

describe("every es invoice gets a registration record in its own batch", () => {
  it("the issued invoice shows a pending record with its QR URL, and so does its invoice.issued event", async () => {
    const { api } = await esAccount();
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine("100")] });
    expect(invoice.verifactu).toEqual({
      status: "pending",
      hash: null,
      previous_hash: null,
      generated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      qr_url: `https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=${invoice.number}&fecha=${String(invoice.issue_date).split("-").reverse().join("-")}&importe=121.00`,
      errors: [],
      records: [
        {
          id: expect.stringMatching(/^vfr_/),
          kind: "registration",
          status: "pending",
          hash: null,
          previous_hash: null,
          generated_at: invoice.verifactu?.generated_at,
          submitted_at: null,
          csv: null,
          registered_at: null,
          errors: [],
          url: `/v1/invoices/${invoice.id}/verifactu-records/${invoice.verifactu?.records[0]?.id}`,
        },
      ],
      cancellation: null,
    });
    const { data } = await listEvents(api, "?type=invoice.issued");
    expect(data[0]?.data.object).toEqual(invoice);
  });

  it("a global account's invoices have verifactu null and no record", async () => {
    const api = client((await createAccount({ taxRegime: "global" })).testKey);
    const customer = await createCustomer(api, {
      name: "Initech Inc",
      tax_id: { country: "US", type: "local", value: "US123456" },
    });
    const invoice = await issue(api, {
      customer: customer.id,
      currency: "USD",
      lines: [{ description: "Service", quantity: "1", unit_price: "10", taxes: [] }],
    });
    expect(invoice.verifactu).toBeNull();
    expectError(await api.get(`/v1/invoices/${invoice.id}/verifactu-record`), 404, "resource_missing", "id");
  });

  it("an invoice VERI*FACTU cannot hold is refused with 400 and its param, and nothing is written", async () => {
    const { api } = await esAccount();
    const customer = await customerWithAddress(api, {
      name: "US Buyer Inc",
      tax_id: { country: "US", type: "local", value: "12-3456789-ABCDEFGHIJKLM" },
      address: { line_1: "1 Main St", city: "Boston", postal_code: "02108", country: "US" },
    });
    const before = await dbSnapshot();
    const res = await api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine()] });
    expectError(res, 400, "parameter_invalid", "customer");
    expect(res.body.error.message).toContain("VERI*FACTU");
    expect(await dbSnapshot()).toEqual(before);
  });

  it.each([
    ["a total of 13 whole digits", [ivaLine("826446280991.74")]],
    [
      "a row base of 13 whole digits under a small total",
      [ivaLine("1000000000000"), ivaLine("-1000000000000", "reduced")],
    ],
  ])(
    "amounts beyond 12 whole digits (what a record holds) are 400 param lines, not a 500: %s",
    async (_, lines) => {
      const { api } = await esAccount();
      const customer = await customerWithAddress(api);
      const before = await dbSnapshot();
      const res = await api.post("/v1/invoices", { customer: customer.id, lines });
      expectError(res, 400, "parameter_invalid", "lines");
      expect(res.body.error.message).toContain("12 whole digits");
      expect(await dbSnapshot()).toEqual(before);
    },
  );

  it("an invoice whose total has exactly 12 whole digits is registered", async () => {
    const { api } = await esAccount();
    const customer = await customerWithAddress(api);
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("826446280991.73")] });
    expect(invoice.total).toBe("999999999999.99");
    expect(invoice.verifactu?.status).toBe("pending");
  });
});

describe("records are chained per account and environment by AEAT's hash", () => {
  it("each record's Huella is AEAT's hash over the previous record's, recomputed from the XML", async () => {
    const { api, chain } = await esAccount();
    const customer = await customerWithAddress(api);
    const first = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    const second = await issue(api, { customer: customer.id, lines: [ivaLine("50", "reduced")] });
    await runSubmissions(chain);

    const [a, b] = await Promise.all(
      [first, second].map(async (i) => (await api.get(`/v1/invoices/${i.id}`)).body as Invoice),
    );
    expect(a?.verifactu?.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(a?.verifactu?.previous_hash).toBeNull();
    expect(b?.verifactu?.previous_hash).toBe(a?.verifactu?.hash);

    const xmlA = await recordXml(api, first.id);
    const xmlB = await recordXml(api, second.id);
    expect(xmlA).toContain("<sf:PrimerRegistro>S</sf:PrimerRegistro>");
    expect(await hashOfXml(xmlA)).toBe(a?.verifactu?.hash);
    expect(await hashOfXml(xmlB)).toBe(b?.verifactu?.hash);
    // The link names the previous invoice and carries its Huella.
    expect(field(xmlB, "NumSerieFactura", "<sf:RegistroAnterior>")).toBe(first.number);
    expect(field(xmlB, "Huella", "<sf:RegistroAnterior>")).toBe(a?.verifactu?.hash);
  });

  it("50 concurrent issues form one chain without a fork, and it verifies end to end", async () => {
    const { api, chain } = await esAccount();
    const issued = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        issue(api, { type: "simplified", series: i % 2 ? "SIMA" : "SIMB", lines: [ivaLine(String(i + 1))] }),
      ),
    );
    for (let round = 0; round < 5; round++) await runSubmissions(chain);
    const rows = await env.DB.prepare(
      "SELECT invoice_id AS id, seq, generated_at AS at FROM verifactu_records WHERE account_id = ? AND live = 0 ORDER BY seq",
    )
      .bind(chain.accountId)
      .all<{ id: string; seq: number; at: number }>();
    // One place per record, 1 to 50, no gap, no two records in one place.
    expect(rows.results.map((r) => r.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(rows.results.map((r) => r.id))).toEqual(new Set(issued.map((i) => i.id)));

    let previous: string | null = null;
    let previousAt = 0;
    for (const { id, at } of rows.results) {
      const invoice = (await api.get(`/v1/invoices/${id}`)).body as Invoice;
      expect(invoice.verifactu?.previous_hash).toBe(previous);
      expect(await hashOfXml(await recordXml(api, id))).toBe(invoice.verifactu?.hash);
      // Generation times never go backwards along the chain.
      expect(at).toBeGreaterThanOrEqual(previousAt);
      previous = invoice.verifactu?.hash ?? null;
      previousAt = at;
    }
  });

  it("Test mode and Live keep separate chains", async () => {
    const account = await createAccount();
    const test = client(account.testKey);
    await setProfile(test);
    const live = await readyLive(account);
    await issue(test, { type: "simplified", lines: [ivaLine()] });
    const liveInvoice = await issue(live, { type: "simplified", lines: [ivaLine()] });
    expect(liveInvoice.verifactu?.qr_url).toMatch(
      /^https:\/\/www2\.agenciatributaria\.gob\.es\/wlpl\/TIKE-CONT\/ValidarQR\?/,
    );
    await runSubmissions({ accountId: account.id, live: true });
    expect(await recordXml(live, liveInvoice.id)).toContain("<sf:PrimerRegistro>S</sf:PrimerRegistro>");
  });
});

describe("GET /v1/invoices/{id}/verifactu-record", () => {
  it("is the RegFactuSistemaFacturacion document holding just this record: the bytes the registry client is given", async () => {
    const { api, chain } = await esAccount();
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const { requests, registryFor } = recordingRegistry();
    await runSubmissions(chain, registryFor);
    const xml = await recordXml(api, invoice.id);
    expect(requests).toHaveLength(1);
    const { registrationXml } = await import("../../../src/verifactu/xml");
    expect(xml).toBe(registrationXml(requests[0]?.records[0] as never));
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?><sfLR:RegFactuSistemaFacturacion')).toBe(
      true,
    );
  });

  it("seals a record issued moments ago on demand, as the consumer would", async () => {
    const { api, chain } = await esAccount();
    const first = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const second = await issue(api, { type: "simplified", lines: [ivaLine("20")] });
    const xml = await recordXml(api, second.id);
    const sealed = (await api.get(`/v1/invoices/${second.id}`)).body as Invoice;
    expect(await hashOfXml(xml)).toBe(sealed.verifactu?.hash);
    expect(sealed.verifactu?.previous_hash).toBe(
      ((await api.get(`/v1/invoices/${first.id}`)).body as Invoice).verifactu?.hash,
    );
    // The consumer finds nothing left to seal and sends the same record.
    const { requests, registryFor } = recordingRegistry();
    await runSubmissions(chain, registryFor);
    expect(requests[0]?.records.map((r) => r.Huella)).toContain(sealed.verifactu?.hash);
  });

  it("another account's invoice does not exist", async () => {
    const { api } = await esAccount();
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const other = client((await createAccount()).testKey);
    expectError(await other.get(`/v1/invoices/${invoice.id}/verifactu-record`), 404, "resource_missing");
  });
});
