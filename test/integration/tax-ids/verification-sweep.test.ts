/**
 * The verification outbox: a Tax ID is written `pending` with its owner, and its first check
 * is queued after the response; the consumer that takes it marks it. When that send fails (or
 * the isolate dies first), the cron sweep queues it once five minutes have passed unmarked, so
 * no verification stays pending forever.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nowMs } from "../../../src/lib/clock";
import { newId } from "../../../src/lib/ids";
import { afterResponses } from "../../helpers/after-response";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount } from "../../helpers/factories";
import { listEvents } from "../../helpers/reads";
import type { TaxId } from "../../helpers/types";
import { captureChecks, playChecks, runChecks, runCron, storedTaxId } from "../../helpers/verifications";

const SECOND = 1000;
const MINUTE = 60 * SECOND;

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

describe("the cron sweep queues every pending verification whose first check no consumer has taken", () => {
  it("a Tax ID whose queue send failed stays pending, and the sweep queues it once it is five minutes old; it then completes", async () => {
    const clock = useClock(Date.now());
    const errors = captureErrors();
    let queueDown = true;
    const checks = captureChecks({ fail: () => queueDown });
    const api = client((await createAccount()).testKey);
    const taxId = await unqueuedCustomer(api, errors);
    expect(taxId.verification?.status).toBe("pending");
    expect(await storedTaxId(taxId.id)).toMatchObject({ verification_queued_at: null });
    queueDown = false;

    clock.advance(5 * MINUTE - SECOND);
    await runCron();
    expect(checks.sent).toEqual([]);

    clock.advance(2 * SECOND);
    await runCron();
    expect(checks.sent).toEqual([
      { body: { tax_id_id: taxId.id, attempt: 1, shard: "DB" }, delaySeconds: undefined },
    ]);

    await playChecks(checks);
    expect(await storedTaxId(taxId.id)).toMatchObject({
      verification_queued_at: new Date(nowMs()).toISOString(),
    });
    expect((await api.get(`/v1/tax-ids/${taxId.id}`)).body.verification).toMatchObject({
      status: "completed",
      valid: true,
    });
    // Taken, then settled: a later run leaves it alone.
    clock.advance(10 * MINUTE);
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
    clock.advance(5 * MINUTE + SECOND);
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

    clock.advance(5 * MINUTE + SECOND);
    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual([other.id]);
    expect(await storedTaxId(stuck.id)).toMatchObject({ verification_queued_at: null });
    await playChecks(checks);

    failing = () => false;
    clock.advance(MINUTE);
    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual([stuck.id]);
  });

  it("a first check sent but not taken for five minutes (a queue backlog) is sent once more and never again; its two copies settle it once, with one event", async () => {
    const clock = useClock(Date.now());
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const res = await api.post("/v1/customers", { name: "Cliente SA", tax_id: vat("B12345674") });
    const taxId = res.body.tax_id.id as string;
    await afterResponses();
    const [fromRequest] = checks.sent.splice(0);

    clock.advance(5 * MINUTE + SECOND);
    await runCron();
    const [fromSweep] = checks.sent.splice(0);
    expect(fromSweep).toEqual(fromRequest);
    // Not again while its copies wait in the queue: Queues delivers what it accepted.
    for (const minutes of [1, 5, 60]) {
      clock.advance(minutes * MINUTE);
      await runCron();
    }
    expect(checks.sent).toEqual([]);

    const { result } = await runChecks([{ body: fromSweep?.body }, { body: fromRequest?.body }]);
    expect([...result.explicitAcks].sort()).toEqual(["m1", "m2"]);
    expect((await api.get(`/v1/tax-ids/${taxId}`)).body.verification).toMatchObject({
      status: "completed",
      valid: true,
    });
    expect((await listEvents(api, `?related_object=${taxId}`)).data).toHaveLength(1);
    expect(await storedTaxId(taxId)).toMatchObject({
      verification_queued_at: new Date(nowMs()).toISOString(),
    });
  });

  it("a first check sent before the consumer kept the mark (the row already marked) is still checked", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const res = await api.post("/v1/customers", { name: "Cliente SA", tax_id: vat("B12345674") });
    const taxId = res.body.tax_id.id as string;
    await afterResponses();
    await env.DB.prepare("UPDATE tax_ids SET verification_queued_at = ? WHERE id = ?")
      .bind(new Date(nowMs()).toISOString(), taxId)
      .run();

    await playChecks(checks);
    expect((await api.get(`/v1/tax-ids/${taxId}`)).body.verification?.status).toBe("completed");
  });

  it("leaves alone Tax IDs without a verification, and pending verifications a consumer has taken", async () => {
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
    // Unavailable on the first attempt: taken, and still pending until its second.
    const taken = await api.post("/v1/customers", { name: "Taken", tax_id: vat("11111111H") });
    await afterResponses();
    const first = checks.sent.splice(0);
    expect(first.map((m) => m.body.tax_id_id)).toEqual([taken.body.tax_id.id]);
    await runChecks(first);
    expect(checks.sent.map((m) => m.body.attempt)).toEqual([2]);

    clock.advance(10 * MINUTE);
    await runCron();
    expect(checks.sent).toHaveLength(1);
    expect((await api.get(`/v1/tax-ids/${taken.body.tax_id.id}`)).body.verification?.status).toBe("pending");
  });

  it("a run takes at most 200, oldest first; the next run takes the rest", async () => {
    const clock = useClock(Date.now());
    const checks = captureChecks();
    const account = await createAccount();
    const ids = Array.from({ length: 201 }, () => newId("taxId"));
    const values = ids.map((id, i) => {
      const createdAt = new Date(nowMs() - 10 * MINUTE + i * SECOND).toISOString();
      return `('${id}', '${account.id}', 0, 'account', '${account.id}', 'ES', 'eu_vat', 'ESB12345674', '${createdAt}', 'pending')`;
    });
    await env.DB.prepare(
      `INSERT INTO tax_ids (id, account_id, live, owner_type, owner_id, country, type, value, created_at, verification_status) VALUES ${values.join(", ")}`,
    ).run();

    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual(ids.slice(0, 200));
    // No consumer has taken them: the next run goes on to the rest instead of sending the
    // same 200 again.
    clock.advance(MINUTE);
    await runCron();
    expect(checks.sent.map((m) => m.body.tax_id_id)).toEqual(ids);
  });
});
