/**
 * verifactu-system.md §1, "Records that recover: subsanación": a rejected or accepted-with-errors
 * registration is sent again as a new record of the same invoice, chained after the chain's
 * latest record, with AEAT's flags; the invoice keeps every record's history, CSV included.
 */
import { describe, expect, it } from "vitest";
import { client, expectStatus, request } from "../../helpers/api";
import { createAccount, createCustomer } from "../../helpers/factories";
import { customerWithAddress, esProfile, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { expectError } from "../../helpers/security";
import { esAccount, recordingRegistry, runSubmissions } from "../../helpers/verifactu";

type Api = ReturnType<typeof client>;
const retrieve = async (api: Api, id: string) => (await api.get(`/v1/invoices/${id}`)).body as Invoice;
const withIssuerNif = (value: string) => ({ ...esProfile, tax_id: { country: "ES", type: "es_nif", value } });
const xmlOf = async (api: Api, url: string) => (await api.get(url)).text;
const field = (xml: string, name: string) => new RegExp(`<sf:${name}>([^<]*)</sf:${name}>`).exec(xml)?.[1];

/** An invoice of issuer 99999999R: the sandbox rejects its registration. */
async function rejected() {
  const { account, api, chain } = await esAccount(withIssuerNif("99999999R"));
  const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
  await runSubmissions(chain);
  expect((await retrieve(api, invoice.id)).verifactu?.status).toBe("rejected");
  return { account, api, chain, invoice };
}

/** An invoice whose customer is 99999999R: the sandbox accepts it with errors. */
async function acceptedWithErrors() {
  const { api, chain } = await esAccount();
  const customer = await customerWithAddress(api, {
    tax_id: { country: "ES", type: "es_nif", value: "99999999R" },
  });
  const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
  await runSubmissions(chain);
  expect((await retrieve(api, invoice.id)).verifactu?.status).toBe("accepted_with_errors");
  return { api, chain, invoice };
}

describe("a rejected or accepted_with_errors registration can be resubmitted", () => {
  it("after a rejection: 200, the invoice pending, a subsanación record with Subsanacion S and RechazoPrevio X chained after the chain's latest record", async () => {
    const { api, invoice } = await rejected();
    // Another record joins the chain first: the subsanación must follow it, not its invoice's record.
    const later = await issue(api, { type: "simplified", lines: [ivaLine("5")] });
    const res = await api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {});
    expectStatus(res, 200);
    const body = res.body as Invoice;
    expect(body.verifactu?.status).toBe("pending");
    expect(body.verifactu?.errors).toEqual([]);
    expect(body.verifactu?.records.map((r) => [r.kind, r.status])).toEqual([
      ["registration", "rejected"],
      ["subsanacion", "pending"],
    ]);
    const xml = await xmlOf(api, `/v1/invoices/${invoice.id}/verifactu-record`);
    expect(field(xml, "Subsanacion")).toBe("S");
    expect(field(xml, "RechazoPrevio")).toBe("X");
    expect(field(xml, "NumSerieFactura")).toBe(invoice.number);
    const afterLater = (await retrieve(api, later.id)).verifactu?.hash;
    expect(xml).toContain(`<sf:Huella>${afterLater}</sf:Huella></sf:RegistroAnterior>`);
  });

  it("Sandbox: a record rejected because the issuer Tax ID is 99999999R is accepted when resubmitted, with the accepted event", async () => {
    const { api, chain, invoice } = await rejected();
    expectStatus(await api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}), 200);
    await runSubmissions(chain);
    const after = await retrieve(api, invoice.id);
    expect(after.verifactu?.status).toBe("accepted");
    expect(after.verifactu?.hash).toBe(after.verifactu?.records[1]?.hash);
    expect(after.verifactu?.records[0]?.status).toBe("rejected");
    const events = await api.get(
      `/v1/events?type=invoice.verifactu_registration.accepted&related_object=${invoice.id}`,
    );
    expect((events.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it("after acceptance with errors: Subsanacion S without RechazoPrevio; the sandbox keeps accepted_with_errors when nothing changed", async () => {
    const { api, chain, invoice } = await acceptedWithErrors();
    expectStatus(await api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}), 200);
    const xml = await xmlOf(api, `/v1/invoices/${invoice.id}/verifactu-record`);
    expect(field(xml, "Subsanacion")).toBe("S");
    expect(field(xml, "RechazoPrevio")).toBeUndefined();
    await runSubmissions(chain);
    expect((await retrieve(api, invoice.id)).verifactu?.status).toBe("accepted_with_errors");
  });

  it("after a rejected subsanación of a record AEAT holds: Subsanacion S and RechazoPrevio S (AEAT's rule for a rejected subsanación)", async () => {
    const { api, chain, invoice } = await acceptedWithErrors();
    expectStatus(await api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}), 200);
    // The registry refuses the subsanación.
    const refusing = recordingRegistry(async (_i, records) => ({
      kind: "answered",
      outcomes: records.map(() => ({
        status: "rejected" as const,
        errors: [{ code: "1100", message: "Valor o tipo incorrecto del campo." }],
      })),
      waitSeconds: 0,
    }));
    await runSubmissions(chain, refusing.registryFor);
    expect((await retrieve(api, invoice.id)).verifactu?.status).toBe("rejected");
    expectStatus(await api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}), 200);
    const xml = await xmlOf(api, `/v1/invoices/${invoice.id}/verifactu-record`);
    expect([field(xml, "Subsanacion"), field(xml, "RechazoPrevio")]).toEqual(["S", "S"]);
  });

  it("any other status is 409 verifactu_not_resubmittable and writes nothing: pending, accepted, void, drafts, global invoices", async () => {
    const { api, chain } = await esAccount();
    const pending = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expectError(
      await api.post(`/v1/invoices/${pending.id}/verifactu/resubmit`, {}),
      409,
      "verifactu_not_resubmittable",
    );
    await runSubmissions(chain);
    expectError(
      await api.post(`/v1/invoices/${pending.id}/verifactu/resubmit`, {}),
      409,
      "verifactu_not_resubmittable",
    );
    expect((await retrieve(api, pending.id)).verifactu?.records).toHaveLength(1);

    const draft = (await api.post("/v1/invoices", { draft: true, type: "simplified", lines: [ivaLine()] }))
      .body as Invoice;
    expectError(
      await api.post(`/v1/invoices/${draft.id}/verifactu/resubmit`, {}),
      409,
      "verifactu_not_resubmittable",
    );

    const { api: rejectedApi, invoice } = await rejected();
    expectStatus(
      await rejectedApi.post(`/v1/invoices/${invoice.id}/void`, { reason: "Issued by mistake" }),
      200,
    );
    expectError(
      await rejectedApi.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}),
      409,
      "verifactu_not_resubmittable",
    );

    const global = client((await createAccount({ taxRegime: "global" })).testKey);
    const buyer = await createCustomer(global, {
      name: "Initech Inc",
      tax_id: { country: "US", type: "local", value: "US123456" },
    });
    const usd = await issue(global, {
      customer: buyer.id,
      currency: "USD",
      lines: [{ description: "Service", quantity: "1", unit_price: "10", taxes: [] }],
    });
    expectError(
      await global.post(`/v1/invoices/${usd.id}/verifactu/resubmit`, {}),
      409,
      "verifactu_not_resubmittable",
    );
    expectError(
      await api.post("/v1/invoices/inv_00000000000000000000000000/verifactu/resubmit", {}),
      404,
      "resource_missing",
    );
  });

  it("two resubmissions at once: one is 200, the other 409, and one subsanación is written", async () => {
    const { api, invoice } = await rejected();
    const results = await Promise.all([
      api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}),
      api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await retrieve(api, invoice.id)).verifactu?.records).toHaveLength(2);
  });

  it("Idempotency-Key: a replayed resubmission answers the same and writes no second record", async () => {
    const { account, api, invoice } = await rejected();
    const send = () =>
      request(
        "POST",
        `/v1/invoices/${invoice.id}/verifactu/resubmit`,
        {},
        {
          key: account.testKey,
          headers: { "idempotency-key": `resubmit-${invoice.id}` },
        },
      );
    const first = await send();
    const again = await send();
    expectStatus(first, 200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect((await retrieve(api, invoice.id)).verifactu?.records).toHaveLength(2);
  });
});

describe("the invoice keeps the history of its records", () => {
  it("verifactu.records, oldest first: kind, status, hash, previous_hash, times, csv, registered_at, errors and the url serving each record's XML", async () => {
    const { api, chain, invoice } = await rejected();
    await api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {});
    await runSubmissions(chain);
    const { verifactu } = await retrieve(api, invoice.id);
    const [registration, subsanacion] = verifactu?.records ?? [];
    expect(registration).toMatchObject({
      kind: "registration",
      status: "rejected",
      csv: null,
      registered_at: null,
      submitted_at: expect.stringMatching(/Z$/),
      errors: [{ code: "sandbox_issuer_rejected", message: expect.any(String) }],
    });
    // AEAT's CSV and presentation time are kept when a record is registered (AEAT gives them once).
    expect(subsanacion).toMatchObject({
      kind: "subsanacion",
      status: "accepted",
      csv: expect.stringMatching(/^SANDBOX[A-Z0-9]{9}$/),
      registered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
      previous_hash: registration?.hash,
    });
    for (const record of verifactu?.records ?? []) {
      const res = await api.get(record.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/xml");
      expect(
        /<sf:TipoHuella>01<\/sf:TipoHuella><sf:Huella>([0-9A-F]{64})<\/sf:Huella>/.exec(res.text)?.[1],
      ).toBe(record.hash);
    }
    // GET …/verifactu-record keeps serving the latest registration or subsanación.
    expect(await xmlOf(api, `/v1/invoices/${invoice.id}/verifactu-record`)).toBe(
      await xmlOf(api, subsanacion?.url ?? ""),
    );
    expectError(
      await api.get(`/v1/invoices/${invoice.id}/verifactu-records/vfr_00000000000000000000000000`),
      404,
      "resource_missing",
    );
  });

  it("the data come from the invoice as issued: the subsanación repeats the registration's content", async () => {
    const { api, invoice } = await rejected();
    const original = await xmlOf(api, `/v1/invoices/${invoice.id}/verifactu-record`);
    await api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {});
    const again = await xmlOf(api, `/v1/invoices/${invoice.id}/verifactu-record`);
    for (const name of [
      "NumSerieFactura",
      "FechaExpedicionFactura",
      "TipoFactura",
      "CuotaTotal",
      "ImporteTotal",
      "DescripcionOperacion",
    ]) {
      expect(field(again, name)).toBe(field(original, name));
    }
  });
});
