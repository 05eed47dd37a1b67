import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../../src/lib/ids";
import { client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, createInstruction, type TestAccount } from "../../helpers/factories";
import { describeAuthMatrix, expectError } from "../../helpers/security";

/** A new instruction's id (the defaults are lists of ids), labelled `label` when given. */
const newInstruction = async (key: string, label?: string) =>
  (await createInstruction(key, label ? { label } : {})).id;

async function getAccount(key: string) {
  const res = await client(key).get("/v1/account");
  expectStatus(res, 200);
  return res.body;
}

async function getDefaults(key: string): Promise<string[]> {
  return (await getAccount(key)).default_payment_instructions;
}

/** Sets the defaults, checks the PATCH response, and that GET /v1/account agrees with it. */
async function setDefaults(key: string, ids: string[]) {
  const res = await client(key).patch("/v1/account", { default_payment_instructions: ids });
  expectStatus(res, 200);
  expect(res.body.default_payment_instructions).toEqual(ids);
  expect(await getAccount(key)).toEqual(res.body);
  return res.body;
}

describe("PATCH /v1/account default_payment_instructions", () => {
  describe("happy path", () => {
    let account: TestAccount;
    beforeAll(async () => {
      account = await createAccount();
    });

    it("a new account has no default payment instructions", async () => {
      const fresh = await createAccount({ name: "Fresh SL" });
      expect(await getAccount(fresh.testKey)).toEqual({
        id: fresh.id,
        object: "account",
        live: false,
        name: "Fresh SL",
        tax_regime: "es",
        default_payment_instructions: [],
        legal_name: null,
        tax_id: null,
        address: null,
        einvoicing: { peppol_id: null },
        simplified_invoices: { limit: "400.00", basis: "art_4_1", reference: null },
        verifactu: { representation: null },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(await getDefaults(fresh.liveKey)).toEqual([]);
      expect((await getAccount(fresh.liveKey)).live).toBe(true);
    });

    it("the defaults are an ordered list, returned in the order given by PATCH and by GET", async () => {
      const a = await newInstruction(account.testKey, "A");
      const b = await newInstruction(account.testKey, "B");
      const c = await newInstruction(account.testKey, "C");
      // Neither creation order nor id order: the order given is kept.
      await setDefaults(account.testKey, [b, c, a]);
      expect(await getDefaults(account.testKey)).toEqual([b, c, a]);
    });

    it("replacing the defaults keeps the new list in its new order", async () => {
      const a = await newInstruction(account.testKey, "A");
      const b = await newInstruction(account.testKey, "B");
      const c = await newInstruction(account.testKey, "C");
      await setDefaults(account.testKey, [a, b, c]);
      await setDefaults(account.testKey, [c, a]);
      expect(await getDefaults(account.testKey)).toEqual([c, a]);
    });

    it("an empty array clears the defaults", async () => {
      const a = await newInstruction(account.testKey);
      await setDefaults(account.testKey, [a]);
      await setDefaults(account.testKey, []);
      expect(await getDefaults(account.testKey)).toEqual([]);
    });

    it("a PATCH without default_payment_instructions leaves them unchanged", async () => {
      const a = await newInstruction(account.testKey);
      await setDefaults(account.testKey, [a]);
      const res = await client(account.testKey).patch("/v1/account", {});
      expectStatus(res, 200);
      expect(res.body.default_payment_instructions).toEqual([a]);
      expect(await getDefaults(account.testKey)).toEqual([a]);
    });

    it("exactly 10 defaults are accepted, in order", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await newInstruction(account.testKey, `Bank ${i}`));
      ids.reverse();
      await setDefaults(account.testKey, ids);
      expect(await getDefaults(account.testKey)).toEqual(ids);
    });

    it("defaults are per environment: test defaults do not change what the live key sees, and back", async () => {
      const own = await createAccount();
      const testId = await newInstruction(own.testKey);
      const liveId = await newInstruction(own.liveKey);
      // The whole live account, updated_at included: test activity must not show there.
      const liveBefore = await getAccount(own.liveKey);
      await setDefaults(own.testKey, [testId]);
      const liveAfter = await getAccount(own.liveKey);
      expect(liveAfter).toEqual(liveBefore);
      expect(liveAfter.default_payment_instructions).toEqual([]);
      await setDefaults(own.liveKey, [liveId]);
      expect(await getDefaults(own.testKey)).toEqual([testId]);
      await setDefaults(own.testKey, []);
      expect(await getDefaults(own.liveKey)).toEqual([liveId]);
    });

    it("creating an instruction does not add it to the defaults", async () => {
      const own = await createAccount();
      await newInstruction(own.testKey);
      expect(await getDefaults(own.testKey)).toEqual([]);
      const a = await newInstruction(own.testKey);
      await setDefaults(own.testKey, [a]);
      await newInstruction(own.testKey);
      expect(await getDefaults(own.testKey)).toEqual([a]);
    });

    it("an instruction in the defaults may still be updated", async () => {
      const a = await newInstruction(account.testKey);
      await setDefaults(account.testKey, [a]);
      const res = await client(account.testKey).patch(`/v1/payment-instructions/${a}`, {
        label: "Renamed",
        bank_transfer: { iban: "DE89370400440532013000", bic: null },
      });
      expectStatus(res, 200);
      expect(res.body.label).toBe("Renamed");
      expect(await getDefaults(account.testKey)).toEqual([a]);
    });

    it("PATCH with an empty body returns the account unchanged, updated_at included", async () => {
      const own = await createAccount();
      const before = await getAccount(own.testKey);
      useClock(Date.now() + 3_600_000);
      const res = await client(own.testKey).patch("/v1/account", {});
      expectStatus(res, 200);
      expect(res.body).toEqual(before);
      expect(await getAccount(own.testKey)).toEqual(before);
    });

    it("updated_at of the account moves on PATCH and created_at does not", async () => {
      const own = await createAccount();
      const before = await getAccount(own.testKey);
      const a = await newInstruction(own.testKey);
      const later = Date.now() + 3_600_000;
      useClock(later);
      const after = await setDefaults(own.testKey, [a]);
      expect(after.updated_at).toBe(new Date(later).toISOString());
      expect(after.updated_at).not.toBe(before.updated_at);
      expect(after.created_at).toBe(before.created_at);
    });
  });

  describe("delete rule", () => {
    it("deleting an instruction that is in the defaults is 409 resource_in_use and it still exists", async () => {
      const own = await createAccount();
      const api = client(own.testKey);
      const a = await newInstruction(own.testKey, "A");
      const b = await newInstruction(own.testKey, "B");
      await setDefaults(own.testKey, [a, b]);
      const before = (await api.get(`/v1/payment-instructions/${b}`)).body;

      const res = await api.del(`/v1/payment-instructions/${b}`);
      expectError(res, 409, "resource_in_use");
      expect(res.body.error.message).toContain(b);

      const still = await api.get(`/v1/payment-instructions/${b}`);
      expectStatus(still, 200);
      expect(still.body).toEqual(before);
      expect(await getDefaults(own.testKey)).toEqual([a, b]);
    });

    it("once removed from the defaults, the instruction can be deleted (204)", async () => {
      const own = await createAccount();
      const api = client(own.testKey);
      const a = await newInstruction(own.testKey, "A");
      const b = await newInstruction(own.testKey, "B");
      await setDefaults(own.testKey, [a, b]);
      expectError(await api.del(`/v1/payment-instructions/${a}`), 409, "resource_in_use");
      await setDefaults(own.testKey, [b]);
      expectStatus(await api.del(`/v1/payment-instructions/${a}`), 204);
      expectError(await api.get(`/v1/payment-instructions/${a}`), 404, "resource_missing");
      expect(await getDefaults(own.testKey)).toEqual([b]);
    });

    it("an instruction that is not in the defaults can be deleted while others are", async () => {
      const own = await createAccount();
      const a = await newInstruction(own.testKey, "A");
      const b = await newInstruction(own.testKey, "B");
      await setDefaults(own.testKey, [a]);
      expectStatus(await client(own.testKey).del(`/v1/payment-instructions/${b}`), 204);
      expect(await getDefaults(own.testKey)).toEqual([a]);
    });
  });

  describe("errors", () => {
    let account: TestAccount;
    let a: string;
    let b: string;
    beforeAll(async () => {
      account = await createAccount();
      a = await newInstruction(account.testKey, "A");
      b = await newInstruction(account.testKey, "B");
    });

    /** The PATCH is rejected with this error and the account (defaults and updated_at) is unchanged. */
    async function expectRejected(body: unknown, code: string, param: string) {
      await setDefaults(account.testKey, [b, a]);
      const before = await getAccount(account.testKey);
      const res = await client(account.testKey).patch("/v1/account", body);
      expectError(res, 400, code, param);
      expect(await getAccount(account.testKey)).toEqual(before);
      return res;
    }

    it("a duplicated id is 400 parameter_invalid pointing at the repeat", async () => {
      const res = await expectRejected(
        { default_payment_instructions: [a, b, a] },
        "parameter_invalid",
        "default_payment_instructions.2",
      );
      expect(res.body.error.message).toContain(a);
    });

    it("an unknown, well-formed instruction id is 400 parameter_invalid pointing at it", async () => {
      const unknown = newId("paymentInstruction");
      const res = await expectRejected(
        { default_payment_instructions: [a, unknown] },
        "parameter_invalid",
        "default_payment_instructions.1",
      );
      expect(res.body.error.message).toContain(unknown);
    });

    it("a deleted instruction's id is 400 parameter_invalid", async () => {
      const gone = await newInstruction(account.testKey);
      expectStatus(await client(account.testKey).del(`/v1/payment-instructions/${gone}`), 204);
      await expectRejected(
        { default_payment_instructions: [gone] },
        "parameter_invalid",
        "default_payment_instructions.0",
      );
    });

    it.each([
      ["not an id at all", "not-an-id"],
      ["an empty string", ""],
      ["the id of another kind of object", "cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR"],
      ["a pmi_ prefix with a malformed body", "pmi_123"],
    ])("a malformed id (%s) is 400 parameter_invalid pointing at it", async (_, id) => {
      await expectRejected(
        { default_payment_instructions: [a, id] },
        "parameter_invalid",
        "default_payment_instructions.1",
      );
    });

    it("an instruction of another account is 400 parameter_invalid, and the other account's defaults are untouched", async () => {
      const stranger = await createAccount();
      const theirs = await newInstruction(stranger.testKey);
      await expectRejected(
        { default_payment_instructions: [theirs] },
        "parameter_invalid",
        "default_payment_instructions.0",
      );
      expect(await getDefaults(stranger.testKey)).toEqual([]);
    });

    it("an instruction of the other environment of the same account is 400 parameter_invalid", async () => {
      const live = await newInstruction(account.liveKey);
      await expectRejected(
        { default_payment_instructions: [a, live] },
        "parameter_invalid",
        "default_payment_instructions.1",
      );
      expect(await getDefaults(account.liveKey)).toEqual([]);
    });

    it("a test instruction cannot become a live default", async () => {
      const liveBefore = await getAccount(account.liveKey);
      const res = await client(account.liveKey).patch("/v1/account", { default_payment_instructions: [a] });
      expectError(res, 400, "parameter_invalid", "default_payment_instructions.0");
      expect(await getAccount(account.liveKey)).toEqual(liveBefore);
    });

    it("more than 10 entries (11 valid ids) is 400 parameter_invalid on default_payment_instructions", async () => {
      const ids: string[] = [];
      for (let i = 0; i < 11; i++) ids.push(await newInstruction(account.testKey, `Bank ${i}`));
      const res = await expectRejected(
        { default_payment_instructions: ids },
        "parameter_invalid",
        "default_payment_instructions",
      );
      expect(res.body.error.message).toMatch(/10/);
    });

    it.each([
      ["a single id string", () => a],
      ["an object", () => ({ 0: a })],
      ["a number", () => 1],
      ["null", () => null],
    ])("a non-array (%s) is 400 parameter_invalid on default_payment_instructions", async (_, value) => {
      await expectRejected(
        { default_payment_instructions: value() },
        "parameter_invalid",
        "default_payment_instructions",
      );
    });

    it.each([
      ["a number", 1, "default_payment_instructions.0"],
      ["null", null, "default_payment_instructions.0"],
      ["an object", { id: "x" }, "default_payment_instructions.0"],
    ])("a non-string entry (%s) is 400 parameter_invalid pointing at it", async (_, entry, param) => {
      await expectRejected({ default_payment_instructions: [entry, a] }, "parameter_invalid", param);
    });

    it("a non-string entry after valid ids names its own index", async () => {
      await expectRejected(
        { default_payment_instructions: [a, b, 7] },
        "parameter_invalid",
        "default_payment_instructions.2",
      );
    });

    it.each([
      ["name", { name: "Renamed" }],
      ["tax_regime", { tax_regime: "global" }],
      ["a made-up field", { colour: "blue", default_payment_instructions: [] }],
    ])("an unknown field (%s) is 400 parameter_unknown", async (_, body) => {
      const param = Object.keys(body)[0] as string;
      await expectRejected(body, "parameter_unknown", param);
    });

    it("a rejected PATCH writes no default rows", async () => {
      const own = await createAccount();
      const x = await newInstruction(own.testKey);
      const res = await client(own.testKey).patch("/v1/account", { default_payment_instructions: [x, x] });
      expectError(res, 400, "parameter_invalid", "default_payment_instructions.1");
      const row = await env.DB.prepare(
        "SELECT count(*) AS n FROM account_default_payment_instructions WHERE account_id = ?",
      )
        .bind(own.id)
        .first<{ n: number }>();
      expect(row?.n).toBe(0);
    });
  });
});

describe("security", () => {
  describeAuthMatrix({ method: "GET", path: () => "/v1/account" });
  describeAuthMatrix({
    method: "PATCH",
    path: () => "/v1/account",
    body: { default_payment_instructions: [] },
  });

  it("PATCH /v1/account with no key is 401 api_key_missing and the defaults are unchanged", async () => {
    const own = await createAccount();
    const a = await newInstruction(own.testKey);
    await setDefaults(own.testKey, [a]);
    const res = await client("").patch("/v1/account", { default_payment_instructions: [] });
    expectError(res, 401, "api_key_missing");
    expect(await getDefaults(own.testKey)).toEqual([a]);
  });

  it("PATCH /v1/account with a bad key is 401 api_key_invalid and the defaults are unchanged", async () => {
    const own = await createAccount();
    const a = await newInstruction(own.testKey);
    await setDefaults(own.testKey, [a]);
    const res = await client(`${own.testKey}x`).patch("/v1/account", { default_payment_instructions: [] });
    expectError(res, 401, "api_key_invalid");
    expect(await getDefaults(own.testKey)).toEqual([a]);
  });

  it("one account's PATCH never changes another account's defaults", async () => {
    const one = await createAccount();
    const two = await createAccount();
    const a = await newInstruction(one.testKey);
    await setDefaults(one.testKey, [a]);
    await setDefaults(two.testKey, []);
    expect(await getDefaults(one.testKey)).toEqual([a]);
  });
});
