/**
 * The verification outbox: a Tax ID is written `pending` with its owner, and its first check
 * is queued after the response. When that send fails (or the isolate dies first), the minute
 * cron sweep queues it, so no verification stays pending forever.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nowMs } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import { type ApiClient, client, expectStatus } from "../helpers/api";
import { useClock } from "../helpers/clock";
import { createAccount } from "../helpers/factories";
import type { TaxId } from "../helpers/types";
import {
  captureChecks,
  playChecks,
  runCron,
  storedTaxId,
  verificationsQueued,
} from "../helpers/verifications";

const SECOND = 1000;

afterEach(() => {
  vi.restoreAllMocks();
});

const vat = (nif: string) => ({ country: "ES", type: "eu_vat" as const, value: `ES${nif}` });

/** Logged errors by event name (the failed sends say `verification_dispatch_error`). */
function captureErrors() {
  const spy = vi.spyOn(console, "error").mockImplementation(() => {});
  return () => spy.mock.calls.map(([line]) => JSON.parse(String(line)).event as string);
}

/** Creates a customer whose first check cannot be queued, and waits for that failed send. */
async function unqueuedCustomer(api: ApiClient, errors: () => string[], nif = "B12345674"): Promise<TaxId> {
  const before = errors().length;
  const res = await api.post("/v1/customers", { name: "Cliente SA", tax_id: vat(nif) });
  expectStatus(res, 201);
  await vi.waitFor(() => expect(errors().length).toBeGreaterThan(before), { timeout: 5000, interval: 10 });
  expect(errors().at(-1)).toBe("verification_dispatch_error");
  return res.body.tax_id;
}

describe("the cron sweep queues every pending verification whose first check was never queued", () => {
  it("a Tax ID whose queue send failed stays pending, and the sweep queues it once it is a minute old; it then completes", async () => {
    const clock = useClock(Date.now());
    const errors = captureErrors();
    let queueDown = true;
    const checks = captureChecks({ fail: () => queueDown });
    const api = client((await createAccount()).testKey);
    const taxId = await unqueuedCustomer(api, errors);
    expect(taxId.verification?.status).toBe("pending");
    expect(await storedTaxId(taxId.id)).toMatchObject({ verification_queued_at: null });
    queueDown = false;

    clock.advance(59 * SECOND);
    await runCron();
    expect(checks.sent).toEqual([]);

    clock.advance(2 * SECOND);
    await runCron();
    expect(checks.sent).toEqual([
      { body: { tax_id_id: taxId.id, attempt: 1, shard: "DB" }, delaySeconds: undefined },
    ]);
    expect(await storedTaxId(taxId.id)).toMatchObject({
      verification_queued_at: new Date(nowMs()).toISOString(),
    });

    await playChecks(checks);
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body.verification).toMatchObject({
      status: "completed",
      valid: true,
    });
    // Queued, then settled: a later run leaves it alone.
    clock.advance(60 * SECOND);
    await runCron();
    expect(checks.sent).toEqual([]);
  });

  it("the account's Tax ID is swept too", async () => {
    const clock = useClock(Date.now());
    const errors = captureErrors();
    let queueDown = true;
    const checks = captureChecks({ fail: () => queueDown });
    const api = client((await createAccount()).testKey);
    const res = await api.patch("/v1/account", { tax_id: vat("B12345674") });
    await vi.waitFor(() => expect(errors()).toContain("verification_dispatch_error"), { timeout: 5000 });
    queueDown = false;
    clock.advance(61 * SECOND);
    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual([res.body.tax_id?.id]);
  });

  it("one Tax ID whose send keeps failing does not stop the sweep from queueing the others", async () => {
    const clock = useClock(Date.now());
    const errors = captureErrors();
    let failing = (_: string) => true;
    const checks = captureChecks({ fail: (id) => failing(id) });
    const api = client((await createAccount()).testKey);
    const stuck = await unqueuedCustomer(api, errors);
    const other = await unqueuedCustomer(api, errors, "A58818501");
    failing = (id) => id === stuck.id;

    clock.advance(61 * SECOND);
    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual([other.id]);
    expect(await storedTaxId(stuck.id)).toMatchObject({ verification_queued_at: null });

    failing = () => false;
    clock.advance(60 * SECOND);
    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual([other.id, stuck.id]);
  });

  it("leaves alone Tax IDs without a verification, and verifications already queued", async () => {
    const clock = useClock(Date.now());
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    expectStatus(
      await api.post("/v1/customers", {
        name: "Local",
        tax_id: { country: "GB", type: "local", value: "GB1" },
      }),
      201,
    );
    const queued = await api.post("/v1/customers", { name: "Queued", tax_id: vat("B12345674") });
    await verificationsQueued();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual([queued.body.tax_id.id]);

    clock.advance(10 * 60 * SECOND);
    await runCron();
    expect(checks.sent).toHaveLength(1);
  });

  it("a run takes at most 200, oldest first; the next run takes the rest", async () => {
    const clock = useClock(Date.now());
    const checks = captureChecks();
    const account = await createAccount();
    const ids = Array.from({ length: 201 }, () => newId("taxId"));
    const values = ids.map((id, i) => {
      const createdAt = new Date(nowMs() - (300 - i) * SECOND).toISOString();
      return `('${id}', '${account.id}', 0, 'account', '${account.id}', 'ES', 'eu_vat', 'ESB12345674', '${createdAt}', 'pending')`;
    });
    await env.DB.prepare(
      `INSERT INTO tax_ids (id, account_id, live, owner_type, owner_id, country, type, value, created_at, verification_status) VALUES ${values.join(", ")}`,
    ).run();

    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual(ids.slice(0, 200));
    clock.advance(60 * SECOND);
    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual(ids);
  });
});
