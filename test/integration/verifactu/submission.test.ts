/**
 * VERI*FACTU submission (compliance.md): records go through the verifactu-submissions queue to
 * the registry of their environment. Test mode's sandbox answers by NIF (issuer 99999999R →
 * rejected; customer 99999999R → accepted with errors; else accepted); each outcome is an
 * event delivered signed; Live without a certificate sends nothing; flow control holds the
 * next request for the registry's wait.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SubmissionMessage } from "../../../src/contracts/submission-message";
import { recordId } from "../../../src/contracts/verifactu-record";
import jobs from "../../../src/jobs";
import { client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { breakTable } from "../../helpers/db";
import { createAccount, createDestination } from "../../helpers/factories";
import {
  customerWithAddress,
  esProfile,
  type Invoice,
  issue,
  ivaLine,
  setProfile,
} from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { esAccount, recordingRegistry, runSubmissions } from "../../helpers/verifactu";
import { type Call, captureFetch } from "../../helpers/webhooks";

afterEach(() => {
  vi.restoreAllMocks();
});

const OUTCOMES = [
  "invoice.verifactu_registration.accepted",
  "invoice.verifactu_registration.accepted_with_errors",
  "invoice.verifactu_registration.rejected",
] as const;

const withIssuerNif = (value: string) => ({ ...esProfile, tax_id: { country: "ES", type: "es_nif", value } });
const retrieve = async (api: ReturnType<typeof client>, id: string) =>
  (await api.get(`/v1/invoices/${id}`)).body as Invoice;

describe("Test mode's sandbox answers as compliance.md says, and each outcome arrives as a signed event", () => {
  it.each([
    ["an ordinary record → accepted", esProfile, "A58818501", "accepted", []],
    [
      "customer Tax ID 99999999R → accepted_with_errors",
      esProfile,
      "99999999R",
      "accepted_with_errors",
      [{ code: "sandbox_recipient_not_identified", message: expect.stringContaining("99999999R") }],
    ],
    [
      "issuer Tax ID 99999999R → rejected",
      withIssuerNif("99999999R"),
      "A58818501",
      "rejected",
      [{ code: "sandbox_issuer_rejected", message: expect.stringContaining("99999999R") }],
    ],
  ] as const)("%s", async (_name, profile, customerNif, status, errors) => {
    const { calls } = captureFetch();
    const { api, chain } = await esAccount(profile);
    const dest = await createDestination(api, { enabled_events: [...OUTCOMES] });
    const customer = await customerWithAddress(api, {
      tax_id: { country: "ES", type: "es_nif", value: customerNif },
    });
    const issued = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    await runSubmissions(chain);

    const invoice = await retrieve(api, issued.id);
    expect(invoice.verifactu).toMatchObject({ status, errors });
    const toDest = () => calls.filter((c) => c.url === dest.url);
    await vi.waitFor(() => expect(toDest()).toHaveLength(1), { timeout: 5000, interval: 10 });
    const call = toDest()[0] as Call;
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({
      type: `invoice.verifactu_registration.${status}`,
      related_object: { id: issued.id, type: "invoice", url: `/v1/invoices/${issued.id}` },
    });
    const signature = parseSignature(call.headers.get("service-signature"));
    expect(signature?.v1).toBe(await referenceHmac(dest.secret, `${signature?.t}.${call.body}`));
    // The event's snapshot is the invoice as it reads after the answer.
    const event = await api.get(`/v1/events/${body.id}`);
    expectStatus(event, 200);
    expect(event.body.data.object).toEqual(invoice);
  });

  it("a simplified invoice with a customer is an F1 naming it (art. 7.2), so its customer 99999999R is checked: accepted with errors", async () => {
    const { api, chain } = await esAccount();
    const customer = await customerWithAddress(api, {
      tax_id: { country: "ES", type: "es_nif", value: "99999999R" },
    });
    const issued = await issue(api, { type: "simplified", customer: customer.id, lines: [ivaLine()] });
    await runSubmissions(chain);
    expect((await retrieve(api, issued.id)).verifactu?.status).toBe("accepted_with_errors");
  });
});

describe("A rejected record is reported, never silently retried", () => {
  it("a second turn on the chain sends nothing and records no second event", async () => {
    const { api, chain } = await esAccount(withIssuerNif("99999999R"));
    const issued = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await runSubmissions(chain);
    const { requests, registryFor } = recordingRegistry();
    await runSubmissions(chain, registryFor);
    expect(requests).toEqual([]);
    const events = await api.get("/v1/events?type=invoice.verifactu_registration.rejected");
    expect(events.body.data.map((e: { related_object: { id: string } }) => e.related_object.id)).toEqual([
      issued.id,
    ]);
  });
});

describe("One request per issuer, oldest first, at most one sender per chain", () => {
  it("records of two issuer NIFs go in two requests, each under its own Cabecera", async () => {
    const { api, chain } = await esAccount();
    const a = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await setProfile(api, withIssuerNif("A58818501"));
    const b = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const { requests, registryFor } = recordingRegistry();
    await runSubmissions(chain, registryFor);
    await runSubmissions(chain, registryFor);
    expect(requests.map((r) => [r.issuer.nif, r.records.map((x) => recordId(x).NumSerieFactura)])).toEqual([
      ["B12345674", [a.number]],
      ["A58818501", [b.number]],
    ]);
  });

  it("a chain another consumer holds is left alone", async () => {
    const { api, chain } = await esAccount();
    await issue(api, { type: "simplified", lines: [ivaLine()] });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = recordingRegistry(async (i, r) => {
      await held;
      const { sandboxRecordRegistry } = await import("../../../src/verifactu/sandbox");
      return sandboxRecordRegistry.submit(i, r);
    });
    const first = runSubmissions(chain, slow.registryFor);
    await vi.waitFor(() => expect(slow.requests).toHaveLength(1));
    const other = recordingRegistry();
    await runSubmissions(chain, other.registryFor);
    release();
    await first;
    expect(other.requests).toEqual([]);
    expect(slow.requests).toHaveLength(1);
  });
});

describe("Flow control: the next request waits for the registry's TiempoEsperaEnvio", () => {
  it("after an answer asking for 60 s, nothing is sent until 60 s have passed", async () => {
    const clock = useClock(Date.UTC(2026, 10, 23, 10));
    const { api, chain } = await esAccount();
    const paced = recordingRegistry(async (_i, records) => ({
      kind: "answered",
      outcomes: records.map(() => ({ status: "accepted", errors: [] })),
      waitSeconds: 60,
    }));
    await issue(api, { type: "simplified", lines: [ivaLine()] });
    await runSubmissions(chain, paced.registryFor);
    const second = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const sends = vi.spyOn(env.VERIFACTU_SUBMISSIONS as Queue<SubmissionMessage>, "send");
    clock.advance(59_000);
    await runSubmissions(chain, paced.registryFor);
    expect(paced.requests).toHaveLength(1);
    // The consumer asks to be called again when the wait is over.
    expect(sends).toHaveBeenCalledWith(
      { account_id: chain.accountId, live: false, shard: "DB" },
      { delaySeconds: 1 },
    );
    clock.advance(1_000);
    await runSubmissions(chain, paced.registryFor);
    expect(paced.requests.map((r) => r.records.map((x) => recordId(x).NumSerieFactura))).toEqual([
      [expect.any(String)],
      [second.number],
    ]);
  });

  it("the registry's wait holds even when recording its verdicts fails: the records go again after it, not before", async () => {
    const clock = useClock(Date.UTC(2026, 10, 23, 10));
    const { api, chain } = await esAccount();
    const issued = await issue(api, { type: "simplified", lines: [ivaLine()] });
    let restore: (() => Promise<void>) | undefined;
    const paced = recordingRegistry(async (_i, records) => {
      // The answer arrives; then the verdicts' batch (records and their events) cannot be written.
      if (!restore) restore = await breakTable("events");
      return {
        kind: "answered",
        outcomes: records.map(() => ({ status: "accepted", errors: [] })),
        waitSeconds: 60,
      };
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    await runSubmissions(chain, paced.registryFor);
    await restore?.();
    expect((await retrieve(api, issued.id)).verifactu?.status).toBe("pending");
    clock.advance(59_000);
    await runSubmissions(chain, paced.registryFor);
    expect(paced.requests).toHaveLength(1);
    clock.advance(1_000);
    await runSubmissions(chain, paced.registryFor);
    expect(paced.requests).toHaveLength(2);
    expect((await retrieve(api, issued.id)).verifactu?.status).toBe("accepted");
  });

  it("a registry that does not answer leaves the records pending, and they go on a later turn", async () => {
    const clock = useClock(Date.UTC(2026, 10, 23, 10));
    const { api, chain } = await esAccount();
    const issued = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const down = recordingRegistry(async () => ({ kind: "unavailable", reason: "aeat:timeout" }));
    await runSubmissions(chain, down.registryFor);
    expect(down.requests.map((r) => r.records.map((x) => recordId(x).NumSerieFactura))).toEqual([
      [issued.number],
    ]);
    expect((await retrieve(api, issued.id)).verifactu?.status).toBe("pending");
    clock.advance(60_000);
    await runSubmissions(chain);
    expect((await retrieve(api, issued.id)).verifactu?.status).toBe("accepted");
  });
});

describe("A request AEAT refuses as a whole (41xx) is not resent for an hour", () => {
  it("after soap_fault:4102 the chain waits 3600 s, not 60 s", async () => {
    const clock = useClock(Date.UTC(2026, 10, 23, 10));
    const { api, chain } = await esAccount();
    await issue(api, { type: "simplified", lines: [ivaLine()] });
    const refused = recordingRegistry(async () => ({ kind: "unavailable", reason: "aeat:soap_fault:4102" }));
    await runSubmissions(chain, refused.registryFor);
    clock.advance(61_000);
    await runSubmissions(chain, refused.registryFor);
    expect(refused.requests).toHaveLength(1);
    clock.advance(3600_000);
    await runSubmissions(chain, refused.registryFor);
    expect(refused.requests).toHaveLength(2);
  });
});

describe("Live", () => {
  it("without the AEAT certificate, Live records are sealed and stay pending: nothing is sent", async () => {
    const account = await createAccount();
    // Issued by a deployment that could send (readiness.test.ts), sent by one that lost its
    // certificate since: the consumer below runs on the suite's bindings, without AEAT_CERT.
    const live = await readyLive(account);
    const issued = await issue(live, { type: "simplified", lines: [ivaLine()] });
    const { calls } = captureFetch();
    await runSubmissions({ accountId: account.id, live: true });
    const invoice = await retrieve(live, issued.id);
    expect(invoice.verifactu?.status).toBe("pending");
    expect(invoice.verifactu?.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(calls).toEqual([]);
  });
});

describe("The cron sweep asks again for chains with pending records", () => {
  it("a chain whose message was lost is asked for; a Live chain without a certificate is not", async () => {
    const account = await createAccount();
    const test = client(account.testKey);
    await setProfile(test);
    const live = await readyLive(account);
    await issue(test, { type: "simplified", lines: [ivaLine()] });
    await issue(live, { type: "simplified", lines: [ivaLine()] });
    const sends = vi.spyOn(env.VERIFACTU_SUBMISSIONS as Queue<SubmissionMessage>, "send");
    const ctx = createExecutionContext();
    await jobs.scheduled(createScheduledController(), env, ctx);
    await waitOnExecutionContext(ctx);
    const asked = sends.mock.calls.map(([body]) => body).filter((b) => b.account_id === account.id);
    expect(asked).toEqual([{ account_id: account.id, live: false, shard: "DB" }]);
  });
});

describe("Issuing asks the consumer to work on the chain", () => {
  it("an es invoice puts its chain on the queue after the response", async () => {
    const sends = vi.spyOn(env.VERIFACTU_SUBMISSIONS as Queue<SubmissionMessage>, "send");
    const { api, account } = await esAccount();
    const customer = await customerWithAddress(api);
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    await vi.waitFor(() =>
      expect(sends.mock.calls.map(([body]) => body)).toContainEqual({
        account_id: account.id,
        live: false,
        shard: "DB",
      }),
    );
  });
});
