/**
 * Tax ID verification (compliance.md): every row of the Test-mode sandbox reached through the
 * API, for a customer's `eu_vat` and `es_nif` and for the account's Tax ID. A Tax ID is written
 * `pending`; the test then plays the queue (test/helpers/verifications.ts): the worker's own
 * consumer runs each message the app sent, and each next attempt after its delay.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TaxRegimeId } from "../../../src/constants";
import viesNamed from "../../fixtures/registries/vies-valid-named.json";
import { afterResponses } from "../../helpers/after-response";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { breakTable } from "../../helpers/db";
import { createAccount, createDestination } from "../../helpers/factories";
import { listEvents } from "../../helpers/reads";
import { dbSnapshot } from "../../helpers/security";
import type { Customer, TaxId } from "../../helpers/types";
import { captureChecks, playChecks, runChecks, storedTaxId } from "../../helpers/verifications";

/** Seconds between attempts (VERIFICATION_RETRY_DELAYS' default: 1 min, 10 min, 1 h, 6 h). */
const DELAYS = [60, 600, 3600, 21600];

const PENDING = {
  status: "pending",
  valid: null,
  completed_at: null,
  verified_name: null,
  verified_address: null,
};

afterEach(() => {
  vi.restoreAllMocks();
});

/** A Tax ID given to its owner through the API, and how to read the owner's current one back. */
type Owned = { taxId: TaxId; current: () => Promise<TaxId | null> };

type Owner = {
  regime: TaxRegimeId;
  /** The Tax ID input for a sandbox NIF (`99999999R`…): an es_nif, or the Spanish VAT number. */
  input: (nif: string) => { country: string; type: string; value: string };
  give: (api: ApiClient, taxId: { country: string; type: string; value: string }) => Promise<Owned>;
};

async function customerWith(api: ApiClient, tax_id: unknown): Promise<Owned> {
  const res = await api.post("/v1/customers", { name: "Cliente SA", tax_id });
  expectStatus(res, 201);
  const id = res.body.id;
  return { taxId: res.body.tax_id, current: async () => (await api.get(`/v1/customers/${id}`)).body.tax_id };
}

async function accountWith(api: ApiClient, tax_id: unknown): Promise<Owned> {
  const res = await api.patch("/v1/account", { tax_id });
  expectStatus(res, 200);
  const taxId = res.body.tax_id as TaxId;
  return { taxId, current: async () => (await api.get("/v1/account")).body.tax_id };
}

const esNif = (nif: string) => ({ country: "ES", type: "es_nif", value: nif });
const esVat = (nif: string) => ({ country: "ES", type: "eu_vat", value: `ES${nif}` });

const OWNERS: [string, Owner][] = [
  ["a customer's eu_vat", { regime: "es", input: esVat, give: customerWith }],
  ["a customer's es_nif", { regime: "es", input: esNif, give: customerWith }],
  ["a global account's customer's eu_vat", { regime: "global", input: esVat, give: customerWith }],
  ["the account's es_nif", { regime: "es", input: esNif, give: accountWith }],
  ["the account's eu_vat", { regime: "global", input: esVat, give: accountWith }],
];

/** compliance.md's sandbox table: the value, what the registry says, the attempts it takes. */
const SANDBOX = [
  ["99999999R", "completed, valid: false", { status: "completed", valid: false }, 1],
  ["00000000T", "unavailable on every attempt → failed", { status: "failed", valid: null }, 5],
  ["11111111H", "unavailable on the first attempt, then valid", { status: "completed", valid: true }, 2],
  ["B12345674", "any other valid value: completed, valid: true", { status: "completed", valid: true }, 1],
] as const;

const CASES = OWNERS.flatMap(([name, owner]) =>
  SANDBOX.map(([nif, says, outcome, attempts]) => [name, nif, says, owner, outcome, attempts] as const),
);

describe("every row of the sandbox table, through the API", () => {
  it.each(CASES)("%s %s: %s", async (_, nif, _says, owner, outcome, attempts) => {
    const clock = useClock(Date.now());
    const checks = captureChecks();
    const api = client((await createAccount({ taxRegime: owner.regime })).testKey);
    const { taxId, current } = await owner.give(api, owner.input(nif));
    expect(taxId.verification).toEqual(PENDING);

    const played = await playChecks(checks);
    // Attempt 1 at once, each next one after its delay; the attempt travels in the message.
    expect(played).toEqual(
      Array.from({ length: attempts }, (_, i) => ({
        body: { tax_id_id: taxId.id, attempt: i + 1, shard: "DB" },
        delaySeconds: i === 0 ? undefined : DELAYS[i - 1],
      })),
    );

    const read = await api.get(`/v1/tax-ids/${taxId.id}`);
    expectStatus(read, 200);
    expect(read.body).toEqual({
      ...taxId,
      verification: { ...PENDING, ...outcome, completed_at: new Date(clock.now()).toISOString() },
    });
    // The owner shows its current Tax ID's latest verification.
    expect(await current()).toEqual(read.body);

    const type =
      outcome.status === "completed" ? "tax_id.verification.completed" : "tax_id.verification.failed";
    const events = (await listEvents(api, `?related_object=${taxId.id}`)).data;
    expect(events).toEqual([
      expect.objectContaining({
        type,
        data: { object: read.body },
        related_object: { id: taxId.id, type: "tax_id", url: `/v1/tax-ids/${taxId.id}` },
      }),
    ]);
  });
});

describe("which Tax IDs are verified", () => {
  it("a Tax ID is pending in the same write that creates it, and its first check is queued after the response; the consumer that takes it marks it", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const { taxId } = await customerWith(api, esVat("B12345674"));
    expect(taxId.verification).toEqual(PENDING);
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body).toEqual(taxId);
    await afterResponses();
    expect(checks.sent).toEqual([
      { body: { tax_id_id: taxId.id, attempt: 1, shard: "DB" }, delaySeconds: undefined },
    ]);
    // The request's only D1 write was its own batch: the mark is the consumer's.
    expect((await storedTaxId(taxId.id))?.verification_queued_at).toBeNull();
    await playChecks(checks);
    expect((await storedTaxId(taxId.id))?.verification_queued_at).toEqual(expect.any(String));
  });

  it.each([
    ["a local Tax ID", "es", { country: "GB", type: "local", value: "GB123456789" }],
    ["an es_nif of a global account", "global", esNif("B12345674")],
  ] as const)("%s has verification: null and queues nothing", async (_, regime, input) => {
    const checks = captureChecks();
    const api = client((await createAccount({ taxRegime: regime })).testKey);
    const customer = await customerWith(api, input);
    const account = await accountWith(api, input);
    for (const { taxId } of [customer, account]) {
      expect(taxId.verification).toBeNull();
      expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body).toEqual(taxId);
    }
    await afterResponses();
    expect(checks.sent).toEqual([]);
  });

  it("in Live, an eu_vat is pending (VIES) and an es_nif without AEAT credentials has verification: null", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).liveKey);
    const vat = await customerWith(api, esVat("B12345674"));
    const nif = await customerWith(api, esNif("B12345674"));
    expect(vat.taxId).toMatchObject({ live: true, verification: PENDING });
    expect(nif.taxId).toMatchObject({ live: true, verification: null });
    await afterResponses();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual([vat.taxId.id]);
  });

  it("in Live, VIES's trader name and address reach the Tax ID as verified_name and verified_address, and its event", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).liveKey);
    // The network boundary: VIES answers with its recorded payload for a named trader.
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json(viesNamed));
    const { taxId, current } = await customerWith(api, {
      country: "BE",
      type: "eu_vat",
      value: "BE0244142664",
    });
    await playChecks(checks);
    expect(String(fetchSpy.mock.calls[0]?.[0])).toContain("ec.europa.eu");
    const verification = {
      status: "completed",
      valid: true,
      completed_at: expect.any(String),
      verified_name: "NV OR De Vlaamse Radio- en Televisieomroeporganisatie",
      verified_address: "Auguste Reyerslaan 52, 1030 Schaarbeek",
    };
    expect((await current())?.verification).toEqual(verification);
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body.verification).toEqual(verification);
    const events = (await listEvents(api, "?type=tax_id.verification.completed")).data;
    expect(events.map((e) => (e.data.object as TaxId).verification)).toEqual([verification]);
  });

  it("a batch of 10 VIES checks has at most 6 requests in flight (Workers queues a seventh, and its timeout would run unsent)", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).liveKey);
    let inFlight = 0;
    let most = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return Response.json(viesNamed);
    });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await customerWith(api, { country: "BE", type: "eu_vat", value: "BE0244142664" })).taxId.id);
    await afterResponses();
    expect(checks.sent.map((m) => m.body.tax_id_id).sort()).toEqual([...ids].sort());
    const { result } = await runChecks(checks.sent.map((m) => ({ body: m.body })));
    expect(result.explicitAcks).toHaveLength(10);
    expect(most).toBe(6);
    for (const id of ids)
      expect((await api.get(`/v1/tax-ids/${id}`)).body.verification?.status).toBe("completed");
  });

  it("a batch's checks and the first attempts of the events they settle share the invocation's 6 connections", async () => {
    const checks = captureChecks();
    let inFlight = 0;
    let most = 0;
    const fetches = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return String(input).includes("ec.europa.eu") ? Response.json(viesNamed) : new Response("ok");
    });
    const account = await createAccount();
    const api = client(account.liveKey);
    for (let i = 0; i < 3; i++) await createDestination(account.liveKey);
    for (let i = 0; i < 6; i++) {
      await customerWith(api, { country: "BE", type: "eu_vat", value: "BE0244142664" });
    }
    await afterResponses();
    // What the checks' batch sends from here: the customers' own first attempts are done.
    fetches.mockClear();
    most = 0;
    await runChecks(checks.sent.map((m) => ({ body: m.body })));
    // 6 registry checks, then 6 tax_id.verification.completed events × 3 destinations.
    expect(fetches).toHaveBeenCalledTimes(6 + 18);
    expect(most).toBe(6);
  });

  it("replacing a customer's Tax ID verifies the new one; the customer event shows it pending", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const { taxId: first, current } = await customerWith(api, esNif("B12345674"));
    await playChecks(checks);
    const customerId = first.owner.id;
    const res = await api.patch(`/v1/customers/${customerId}`, { tax_id: esVat("99999999R") });
    expectStatus(res, 200);
    expect(res.body.tax_id).toMatchObject({ value: "ES99999999R", verification: PENDING });
    const updated = (await listEvents(api, "?type=customer.updated")).data.map(
      (e) => e.data.object as Customer,
    );
    expect(updated.map((c) => c.tax_id)).toEqual([res.body.tax_id]);

    await playChecks(checks);
    expect((await current())?.verification).toMatchObject({ status: "completed", valid: false });
  });

  it("completing a verification does not move the customer's updated_at (it is not a customer change)", async () => {
    const clock = useClock(Date.now());
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const res = await api.post("/v1/customers", { name: "Cliente SA", tax_id: esNif("B12345674") });
    clock.advance(5000);
    await playChecks(checks);
    const after = await api.get(`/v1/customers/${res.body.id}`);
    expect(after.body.updated_at).toBe(res.body.updated_at);
    expect(after.body.tax_id.verification?.completed_at).not.toBe(res.body.updated_at);
    expect((await listEvents(api, "?type=customer.updated")).data).toEqual([]);
  });
});

/** A customer with a pending Tax ID whose first check is captured, not yet run. */
async function pendingCustomer(nif = "B12345674") {
  const checks = captureChecks();
  const api = client((await createAccount()).testKey);
  const owned = await customerWith(api, esVat(nif));
  await afterResponses();
  checks.sent.splice(0);
  return { api, checks, ...owned, body: { tax_id_id: owned.taxId.id, attempt: 1, shard: "DB" } };
}

describe("the consumer: idempotent, and our own failures never use the registry's attempts", () => {
  it("a redelivered message of a settled verification changes nothing and records no second event", async () => {
    const { api, taxId, body } = await pendingCustomer();
    await runChecks([{ body }]);
    const settled = (await api.get(`/v1/tax-ids/${taxId.id}`)).body;
    expect(settled.verification?.status).toBe("completed");

    const again = await runChecks([{ body }, { body: { ...body, attempt: 3 } }]);
    expect([...again.result.explicitAcks].sort()).toEqual(["m1", "m2"]);
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body).toEqual(settled);
    expect((await listEvents(api, `?related_object=${taxId.id}`)).data).toHaveLength(1);
  });

  it("two copies of one check in one batch settle it once, with one event", async () => {
    const { api, taxId, body } = await pendingCustomer();
    const { result } = await runChecks([{ body }, { body }]);
    expect([...result.explicitAcks].sort()).toEqual(["m1", "m2"]);
    expect((await listEvents(api, `?related_object=${taxId.id}`)).data).toHaveLength(1);
  });

  it("a check whose result cannot be written (D1 fails) is retried as the same attempt", async () => {
    const { api, checks, taxId, body } = await pendingCustomer("99999999R");
    const restore = await breakTable("events");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failed = await runChecks([{ body, attempts: 1 }]);
    expect(failed.result.explicitAcks).toEqual([]);
    expect(failed.retries[0]).toHaveBeenCalledWith({ delaySeconds: 60 });
    expect(checks.sent).toEqual([]);
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body.verification).toEqual(PENDING);

    await restore();
    // The queue's second try of the same message: still the registry's first attempt.
    const again = await runChecks([{ body, attempts: 2 }]);
    expect(again.result.explicitAcks).toEqual(["m1"]);
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body.verification).toMatchObject({
      status: "completed",
      valid: false,
    });
  });

  it("an unavailable registry whose next attempt cannot be queued is retried as the same attempt", async () => {
    const { checks, body } = await pendingCustomer("11111111H");
    checks.spy.mockRejectedValueOnce(new Error("queue unavailable"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failed = await runChecks([{ body, attempts: 1 }]);
    expect(failed.result.explicitAcks).toEqual([]);
    expect(failed.retries[0]).toHaveBeenCalledWith({ delaySeconds: 60 });

    const again = await runChecks([{ body, attempts: 2 }]);
    expect(again.result.explicitAcks).toEqual(["m1"]);
    expect(checks.sent).toEqual([{ body: { ...body, attempt: 2 }, delaySeconds: 60 }]);
  });

  it("a message for a Tax ID that does not exist, or a malformed one, is acked and writes nothing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const before = await dbSnapshot();
    const { result } = await runChecks([
      { body: { tax_id_id: "txi_00000000000000000000000000", attempt: 1 } },
      { body: { nonsense: true } },
    ]);
    expect([...result.explicitAcks].sort()).toEqual(["m1", "m2"]);
    expect(result.retryMessages).toEqual([]);
    expect(await dbSnapshot()).toBe(before);
  });
});

describe("the dead-letter queue: no verification stays pending forever", () => {
  it("a check our processing kept failing ends failed, with its event", async () => {
    const clock = useClock(Date.now());
    const { api, taxId, current, body } = await pendingCustomer();
    const { result } = await runChecks(
      [{ body: { ...body, attempt: 2 }, attempts: 11 }],
      "tax-id-verifications-dlq",
    );
    expect(result.explicitAcks).toEqual(["m1"]);
    const read = (await api.get(`/v1/tax-ids/${taxId.id}`)).body;
    expect(read.verification).toEqual({
      ...PENDING,
      status: "failed",
      completed_at: new Date(clock.now()).toISOString(),
    });
    expect(await current()).toEqual(read);
    const events = (await listEvents(api, `?related_object=${taxId.id}`)).data;
    expect(events).toEqual([
      expect.objectContaining({ type: "tax_id.verification.failed", data: { object: read } }),
    ]);
  });

  it("a dead letter of a settled verification leaves it as it is; a malformed one is dropped", async () => {
    const { api, taxId, body } = await pendingCustomer("99999999R");
    await runChecks([{ body }]);
    const settled = (await api.get(`/v1/tax-ids/${taxId.id}`)).body;
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { result } = await runChecks([{ body }, { body: "garbage" }], "tax-id-verifications-dlq");
    expect([...result.explicitAcks].sort()).toEqual(["m1", "m2"]);
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body).toEqual(settled);
    expect((await listEvents(api, `?related_object=${taxId.id}`)).data).toHaveLength(1);
  });

  it("a dead letter that cannot be recorded is retried, never dropped", async () => {
    const { api, taxId, body } = await pendingCustomer();
    const restore = await breakTable("events");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const failed = await runChecks([{ body, attempts: 1 }], "tax-id-verifications-dlq");
    expect(failed.result.explicitAcks).toEqual([]);
    expect(failed.retries[0]).toHaveBeenCalledWith({ delaySeconds: 60 });
    await restore();
    await runChecks([{ body, attempts: 2 }], "tax-id-verifications-dlq");
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body.verification?.status).toBe("failed");
  });
});
