/**
 * verifactu-system.md §3, "When AEAT cannot be reached: incidents": records go in generation
 * order, retried while the registry is unreachable; a record generated while an incident is
 * open travels with RemisionVoluntaria/Incidencia S (Orden HAC/1177/2024 art. 16.4);
 * GET /v1/verifactu/status says how many records wait, since when, and whether sending fails;
 * flow control lets a request go before AEAT's wait only with 1,000 records.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { isAnulacion, recordId } from "../../../src/contracts/verifactu-record";
import { type ApiClient, client, expectStatus, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createDestination } from "../../helpers/factories";
import { customerWithAddress, issue, ivaLine } from "../../helpers/invoices";
import { esAccount, recordingRegistry, runSubmissions } from "../../helpers/verifactu";
import { captureFetch } from "../../helpers/webhooks";

const status = async (api: ApiClient) => {
  const res = await api.get("/v1/verifactu/status");
  expectStatus(res, 200);
  return res.body as Record<string, unknown>;
};
const START = Date.UTC(2026, 10, 23, 10);

describe("GET /v1/verifactu/status", () => {
  it("says how many records wait and since when; nothing failing, nothing accepted yet", async () => {
    useClock(START);
    const { api, chain } = await esAccount();
    expect(await status(api)).toEqual({
      object: "verifactu_status",
      live: false,
      pending: 0,
      oldest_pending_at: null,
      incident_since: null,
      last_accepted_at: null,
    });
    const first = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await issue(api, { type: "simplified", lines: [ivaLine()] });
    expect(await status(api)).toMatchObject({ pending: 2, oldest_pending_at: first.verifactu?.generated_at });
    await runSubmissions(chain);
    expect(await status(api)).toMatchObject({
      pending: 0,
      oldest_pending_at: null,
      incident_since: null,
      last_accepted_at: new Date(START).toISOString(),
    });
  });

  it("needs an API key, and each environment sees its own", async () => {
    const { account, api } = await esAccount();
    await issue(api, { type: "simplified", lines: [ivaLine()] });
    const live = await client(account.liveKey).get("/v1/verifactu/status");
    expectStatus(live, 200);
    expect(live.body).toMatchObject({ live: true, pending: 0 });
    expect((await request("GET", "/v1/verifactu/status")).status).toBe(401);
  });
});

describe("Sandbox incident: a customer Tax ID 00000000T makes the registry unreachable for the first two attempts", () => {
  it("an incident opens and closes, with its events; the record generated in between carries Incidencia S", async () => {
    const clock = useClock(START);
    const { calls } = captureFetch();
    const { api, chain } = await esAccount();
    const dest = await createDestination(api, {
      enabled_events: ["verifactu.incident.opened", "verifactu.incident.closed"],
    });
    const steering = await customerWithAddress(api, {
      tax_id: { country: "ES", type: "es_nif", value: "00000000T" },
    });
    const before = await issue(api, { customer: steering.id, lines: [ivaLine()] });
    const sandbox = recordingRegistry();

    await runSubmissions(chain, sandbox.registryFor);
    const opened = await status(api);
    expect(opened).toMatchObject({ pending: 1, incident_since: new Date(START).toISOString() });
    const during = await issue(api, { type: "simplified", lines: [ivaLine()] });

    // Retried after the wait (60 s here, in production; seconds under npm start), unreachable a
    // second time, then answered.
    clock.advance(59_000);
    await runSubmissions(chain, sandbox.registryFor);
    expect(sandbox.requests).toHaveLength(1);
    clock.advance(1_000);
    await runSubmissions(chain, sandbox.registryFor);
    expect((await status(api)).incident_since).toBe(new Date(START).toISOString());
    clock.advance(60_000);
    await runSubmissions(chain, sandbox.registryFor);
    await runSubmissions(chain, sandbox.registryFor);

    expect(
      sandbox.requests.map((r) => [r.issuer.incident, r.records.map((x) => recordId(x).NumSerieFactura)]),
    ).toEqual([
      [false, [before.number]],
      [false, [before.number]],
      [false, [before.number]],
      [true, [during.number]],
    ]);
    expect(await status(api)).toMatchObject({
      pending: 0,
      incident_since: null,
      last_accepted_at: expect.any(String),
    });
    const incidentEvents = async () => {
      const res = await api.get(`/v1/events?related_object=${chain.accountId}`);
      return (res.body as { data: { type: string; related_object: unknown; data: { object: unknown } }[] })
        .data;
    };
    const events = await incidentEvents();
    expect(events.map((e) => e.type)).toEqual(["verifactu.incident.closed", "verifactu.incident.opened"]);
    expect(events[1]).toMatchObject({
      related_object: { id: chain.accountId, type: "account", url: "/v1/account" },
      data: {
        object: { object: "verifactu_status", incident_since: new Date(START).toISOString(), pending: 1 },
      },
    });
    await vi.waitFor(() => expect(calls.filter((c) => c.url === dest.url)).toHaveLength(2), {
      timeout: 5000,
      interval: 10,
    });
  });
});

describe("Flow control: up to 1,000 records a request; the next waits TiempoEsperaEnvio, or goes at once with 1,000 pending", () => {
  it("with 1,000 records pending a request goes before the wait, carrying 1,000", async () => {
    useClock(START);
    const { api, chain } = await esAccount();
    const paced = recordingRegistry(async (_i, records) => ({
      kind: "answered",
      outcomes: records.map(() => ({ status: "accepted" as const, errors: [] })),
      waitSeconds: 60,
    }));
    const template = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await runSubmissions(chain, paced.registryFor);
    expect(paced.requests).toHaveLength(1);

    // 999 waiting: the wait holds.
    await copies(template.id, 999);
    await runSubmissions(chain, paced.registryFor);
    expect(paced.requests).toHaveLength(1);
    // The 1,000th: one request of 1,000 goes at once.
    await copies(template.id, 1, 999);
    await runSubmissions(chain, paced.registryFor);
    expect(paced.requests.map((r) => r.records.length)).toEqual([1, 1000]);
    expect(paced.requests[1]?.records.every((r) => !isAnulacion(r))).toBe(true);
  });
});

/**
 * `n` pending, sealed records of new invoices copied from invoice `templateId` (numbers
 * `COPY-<i>`), written straight into D1: issuing 1,000 invoices through the API would take
 * minutes. Their hashes are not AEAT's; the registry here does not check them.
 */
async function copies(templateId: string, n: number, from = 0) {
  const columns = (
    await env.DB.prepare("SELECT name FROM pragma_table_info('invoices')").all<{ name: string }>()
  ).results.map((c) => c.name);
  const pick = (overrides: Record<string, string>) => columns.map((c) => overrides[c] ?? `"${c}"`).join(", ");
  const [template] = (
    await env.DB.prepare("SELECT * FROM verifactu_records WHERE invoice_id = ?")
      .bind(templateId)
      .all<{ seq: number }>()
  ).results;
  const statements = [];
  for (let i = from; i < from + n; i++) {
    const invoiceId = `inv_COPY${String(i).padStart(22, "0")}`;
    const recordId = `vfr_COPY${String(i).padStart(22, "0")}`;
    const number = `COPY-${i}`;
    statements.push(
      env.DB.prepare(
        `INSERT INTO invoices (${columns.map((c) => `"${c}"`).join(", ")}) SELECT ${pick({
          id: "?1",
          number: "?2",
          counter: `counter + 1000000 + ${i}`,
          series: "'COPY'",
          verifactu_status: "'pending'",
          verifactu_records: `json_array(json_object('id', ?3, 'kind', 'registration', 'status', 'pending', 'hash', NULL, 'previous_hash', NULL, 'generated_at', '2026-11-23T10:00:00.000Z', 'submitted_at', NULL, 'csv', NULL, 'registered_at', NULL, 'errors', json('[]')))`,
        })} FROM invoices WHERE id = ?4`,
      ).bind(invoiceId, number, recordId, templateId),
      env.DB.prepare(
        `INSERT INTO verifactu_records (id, account_id, live, issuer_nif, seq, invoice_id, kind, position, status, record, hash, generated_at, incident, attempts, errors)
         SELECT ?1, account_id, live, issuer_nif, ?2, ?3, 'registration', 0, 'pending', json_set(record, '$.IDFactura.NumSerieFactura', ?4), hash, generated_at + ?5, 0, 0, '[]'
         FROM verifactu_records WHERE invoice_id = ?6`,
      ).bind(recordId, (template?.seq ?? 0) + 1 + i, invoiceId, number, i + 1, templateId),
    );
  }
  for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
}
