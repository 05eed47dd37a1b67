/**
 * `GET /v1/tax-ids/{id}` (compliance.md): any Tax ID of the caller's account and environment,
 * current or replaced, each with its own verification; 404 for everything else.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { afterResponses } from "../../helpers/after-response";
import { type ApiResponse, client, expectStatus } from "../../helpers/api";
import { createAccount, createCustomer } from "../../helpers/factories";
import { describeAuthMatrix, expectError } from "../../helpers/security";
import { captureChecks, playChecks, runChecks, type SentCheck } from "../../helpers/verifications";

afterEach(() => {
  vi.restoreAllMocks();
});

const vat = (nif: string) => ({ country: "ES", type: "eu_vat" as const, value: `ES${nif}` });
const rowsRead = (res: ApiResponse) => Number(res.headers.get("D1-Rows-Read"));

describe("GET /v1/tax-ids/{id}", () => {
  it("returns a customer's Tax ID exactly as the customer shows it, with its owner", async () => {
    const api = client((await createAccount()).testKey);
    const customer = await createCustomer(api, { tax_id: vat("B12345674") });
    const res = await api.get(`/v1/tax-ids/${customer.tax_id.id}`);
    expectStatus(res, 200);
    expect(res.body).toEqual(customer.tax_id);
    expect(res.body.owner).toEqual({ type: "customer", id: customer.id });
    // One row, by primary key, whatever the account holds.
    expect(rowsRead(res)).toBe(1);
  });

  it("returns the account's Tax ID, owned by the account, in the key's environment", async () => {
    const account = await createAccount();
    for (const [key, live] of [
      [account.testKey, false],
      [account.liveKey, true],
    ] as const) {
      const api = client(key);
      const patched = await api.patch("/v1/account", { tax_id: vat("B12345674") });
      expectStatus(patched, 200);
      const id = patched.body.tax_id?.id ?? "";
      const res = await api.get(`/v1/tax-ids/${id}`);
      expectStatus(res, 200);
      expect(res.body).toEqual(patched.body.tax_id);
      expect(res.body).toMatchObject({ live, owner: { type: "account", id: account.id } });
    }
  });

  it("a replaced Tax ID stays retrievable and keeps its own verification; the customer shows its current one", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const customer = await createCustomer(api, { tax_id: vat("99999999R") });
    await playChecks(checks);
    const first = (await api.get(`/v1/tax-ids/${customer.tax_id.id}`)).body;
    expect(first.verification).toMatchObject({ status: "completed", valid: false });

    const replaced = await api.patch(`/v1/customers/${customer.id}`, { tax_id: vat("B12345674") });
    expectStatus(replaced, 200);
    const second = replaced.body.tax_id;
    expect(second.id).not.toBe(first.id);
    expect(second.verification?.status).toBe("pending");
    await playChecks(checks);

    expect((await api.get(`/v1/tax-ids/${first.id}`)).body).toEqual(first);
    const current = await api.get(`/v1/tax-ids/${second.id}`);
    expect(current.body.verification).toMatchObject({ status: "completed", valid: true });
    expect((await api.get(`/v1/customers/${customer.id}`)).body.tax_id).toEqual(current.body);
  });

  it("a check that completes after its Tax ID was replaced verifies that Tax ID alone, not the customer's new one", async () => {
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const customer = await createCustomer(api, { tax_id: vat("99999999R") });
    await afterResponses();
    const firstCheck = checks.sent.splice(0)[0] as SentCheck;
    const replaced = await api.patch(`/v1/customers/${customer.id}`, { tax_id: vat("B12345674") });
    expectStatus(replaced, 200);

    await runChecks([{ body: firstCheck.body }]);
    expect((await api.get(`/v1/tax-ids/${customer.tax_id.id}`)).body.verification).toMatchObject({
      status: "completed",
      valid: false,
    });
    const now = (await api.get(`/v1/customers/${customer.id}`)).body;
    expect(now.tax_id).toEqual(replaced.body.tax_id);
    expect(now.tax_id.verification?.status).toBe("pending");
  });

  it("the account's replaced Tax ID stays retrievable, and so does one cleared with null", async () => {
    const api = client((await createAccount()).testKey);
    const first = (await api.patch("/v1/account", { tax_id: vat("B12345674") })).body.tax_id;
    const second = (await api.patch("/v1/account", { tax_id: vat("A58818501") })).body.tax_id;
    const cleared = await api.patch("/v1/account", { tax_id: null });
    expect(cleared.body.tax_id).toBeNull();
    for (const taxId of [first, second]) {
      expect((await api.get(`/v1/tax-ids/${taxId?.id}`)).body).toEqual(taxId);
    }
  });

  it("a deleted customer's Tax ID stays retrievable (its owner id no longer resolves)", async () => {
    const api = client((await createAccount()).testKey);
    const customer = await createCustomer(api);
    expectStatus(await api.del(`/v1/customers/${customer.id}`), 204);
    const res = await api.get(`/v1/tax-ids/${customer.tax_id.id}`);
    expectStatus(res, 200);
    expect(res.body).toEqual(customer.tax_id);
  });

  it.each([
    ["an unknown id", "txi_00000000000000000000000000"],
    ["a customer id", "cus_00000000000000000000000000"],
    ["a malformed id", "not-an-id"],
  ])("%s is 404 resource_missing", async (_, id) => {
    const api = client((await createAccount()).testKey);
    const res = await api.get(`/v1/tax-ids/${id}`);
    expectError(res, 404, "resource_missing");
    expect(res.body.error.message).toContain(id);
  });

  it("the other environment's and another account's Tax IDs, current or replaced, are 404", async () => {
    const owner = await createAccount();
    const stranger = await createAccount();
    const test = client(owner.testKey);
    const customer = await createCustomer(test, { tax_id: vat("B12345674") });
    const replaced = await test.patch(`/v1/customers/${customer.id}`, { tax_id: vat("A58818501") });
    const accountTaxId = (await client(owner.liveKey).patch("/v1/account", { tax_id: vat("B12345674") })).body
      .tax_id;
    const cases: [key: string, id: string][] = [
      [owner.liveKey, customer.tax_id.id],
      [owner.liveKey, replaced.body.tax_id.id],
      [stranger.testKey, customer.tax_id.id],
      [stranger.testKey, replaced.body.tax_id.id],
      [owner.testKey, accountTaxId?.id ?? ""],
      [stranger.liveKey, accountTaxId?.id ?? ""],
    ];
    for (const [key, id] of cases) {
      expectError(await client(key).get(`/v1/tax-ids/${id}`), 404, "resource_missing");
    }
  });
});

describeAuthMatrix({
  method: "GET",
  path: (id) => `/v1/tax-ids/${id}`,
  create: async (key) => (await createCustomer(key)).tax_id.id,
  read: async (key, id) => (await client(key).get(`/v1/tax-ids/${id}`)).body,
});
