import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createAccount, createInstruction, type TestAccount } from "../../helpers/factories";
import { expectError } from "../../helpers/security";

/** The stored row, read straight from D1, so a rejected update is proven to have written nothing. */
async function storedRow(id: string) {
  return env.DB.prepare("SELECT * FROM payment_instructions WHERE id = ?").bind(id).first();
}

describe("PATCH /v1/payment-instructions/:id", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  const create = () => createInstruction(api);

  /**
   * Runs the update with the clock an hour ahead, so a moved updated_at is visible; the
   * clock stays there until the test ends (nothing after the update reads it).
   */
  async function update(id: string, patch: unknown) {
    const later = Date.now() + 3_600_000;
    useClock(later);
    const res = await api.patch(`/v1/payment-instructions/${id}`, patch);
    expectStatus(res, 200);
    // What the update returns is what is stored.
    expect((await api.get(`/v1/payment-instructions/${id}`)).body).toEqual(res.body);
    return { body: res.body, at: new Date(later).toISOString() };
  }

  /** The update is rejected with this error and the instruction is left exactly as it was. */
  async function expectRejected(id: string, patch: unknown, code: string, param: string) {
    const before = await storedRow(id);
    expect(before).not.toBeNull();
    const res = await api.patch(`/v1/payment-instructions/${id}`, patch);
    expectError(res, 400, code, param);
    expect(await storedRow(id)).toEqual(before);
    return res;
  }

  /** The instruction without the field an update is expected to move. */
  const stable = ({ updated_at: _, ...rest }: Record<string, unknown>) => rest;

  describe("happy path", () => {
    it("updating only the label changes the label and leaves bank_transfer unchanged", async () => {
      const before = await create();
      const { body: after } = await update(before.id, { label: "Renamed account" });
      expect(stable(after)).toEqual({ ...stable(before), label: "Renamed account" });
    });

    it("updating only bank_transfer.beneficiary leaves the IBAN, BIC and label unchanged", async () => {
      const before = await create();
      const { body: after } = await update(before.id, { bank_transfer: { beneficiary: "Acme Holding SL" } });
      expect(stable(after)).toEqual({
        ...stable(before),
        bank_transfer: { ...before.bank_transfer, beneficiary: "Acme Holding SL" },
      });
    });

    it("a new IBAN is validated and normalised as on create, and the other fields stay unchanged", async () => {
      const before = await create();
      const { body: after } = await update(before.id, {
        bank_transfer: { iban: "gb82 west 1234 5698 7654 32" },
      });
      expect(stable(after)).toEqual({
        ...stable(before),
        bank_transfer: { ...before.bank_transfer, iban: "GB82WEST12345698765432" },
      });
    });

    it("a new BIC is normalised", async () => {
      const before = await create();
      const { body: after } = await update(before.id, { bank_transfer: { bic: "deut de ff" } });
      expect(after.bank_transfer).toEqual({ ...before.bank_transfer, bic: "DEUTDEFF" });
    });

    it("bic: null clears the BIC and leaves the rest of bank_transfer unchanged", async () => {
      const before = await create();
      expect(before.bank_transfer.bic).not.toBeNull();
      const { body: after } = await update(before.id, { bank_transfer: { bic: null } });
      expect(after.bank_transfer).toEqual({ ...before.bank_transfer, bic: null });
    });

    it("a BIC omitted from an update of bank_transfer is kept, not cleared", async () => {
      const before = await create();
      const { body: after } = await update(before.id, {
        bank_transfer: { beneficiary: "Other SL", iban: "DE89370400440532013000" },
      });
      expect(after.bank_transfer).toEqual({
        beneficiary: "Other SL",
        iban: "DE89370400440532013000",
        bic: "CAIXESBBXXX",
      });
    });

    it("an empty body returns 200 with the instruction unchanged, updated_at included", async () => {
      const before = await create();
      const { body: after } = await update(before.id, {});
      expect(after).toEqual(before);
    });

    it("an empty bank_transfer object returns 200 with the instruction unchanged, updated_at included", async () => {
      const before = await create();
      const { body: after } = await update(before.id, { bank_transfer: {} });
      expect(after).toEqual(before);
    });

    it("updated_at moves to the time of a real change and created_at does not", async () => {
      const before = await create();
      const { body: after, at } = await update(before.id, { label: "Moved" });
      expect(after.updated_at).toBe(at);
      expect(after.updated_at).not.toBe(before.updated_at);
      expect(after.created_at).toBe(before.created_at);
    });

    it("a live instruction is updated with the live key and stays live", async () => {
      const live = client(account.liveKey);
      const created = await createInstruction(live);
      const res = await live.patch(`/v1/payment-instructions/${created.id}`, { label: "Live renamed" });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ live: true, label: "Live renamed" });
    });
  });

  describe("errors", () => {
    it.each([
      ["wrong check digits", "DE88370400440532013000", /check digits/i],
      ["the wrong length", "DE8937040044053201300", /22 characters/],
      ["a country outside the registry", "US64SVBKUS6S3300958879", /country/i],
      ["characters that are not allowed", "DE89-3704-0044-0532-0130-00", /letters.*digits/i],
      // Correct mod-97 for its BBAN; only the DC pair (46, should be 45) is wrong.
      ["wrong Spanish national check digits", "ES2921000418460200051332", /national check digits/i],
    ])(
      "an IBAN with %s is 400 with param bank_transfer.iban and changes nothing",
      async (_, iban, message) => {
        const before = await create();
        const res = await expectRejected(
          before.id,
          { label: "Should not stick", bank_transfer: { iban } },
          "parameter_invalid",
          "bank_transfer.iban",
        );
        expect(res.body.error.message).toMatch(message);
      },
    );

    it("a bad BIC is 400 with param bank_transfer.bic and changes nothing", async () => {
      const before = await create();
      await expectRejected(
        before.id,
        { bank_transfer: { bic: "DEUTZZFF" } },
        "parameter_invalid",
        "bank_transfer.bic",
      );
    });

    it.each([
      ["bank_transfer (the only type)", "bank_transfer"],
      ["another type", "card"],
      ["null", null],
    ])("type set to %s is 400 parameter_invalid with param type: type is not updatable", async (_, type) => {
      const before = await create();
      const res = await expectRejected(
        before.id,
        { label: "Should not stick", type },
        "parameter_invalid",
        "type",
      );
      expect(res.body.error.message).toMatch(/type/);
    });

    it("an unknown top-level field is 400 parameter_unknown and changes nothing", async () => {
      const before = await create();
      await expectRejected(
        before.id,
        { label: "Should not stick", currency: "EUR" },
        "parameter_unknown",
        "currency",
      );
    });

    it("an unknown field inside bank_transfer is 400 parameter_unknown with the dotted param", async () => {
      const before = await create();
      await expectRejected(
        before.id,
        { bank_transfer: { iban: "DE89370400440532013000", sort_code: "1" } },
        "parameter_unknown",
        "bank_transfer.sort_code",
      );
    });

    it("a label of 257 characters is 400 parameter_invalid and a label of 256 is accepted", async () => {
      const before = await create();
      await expectRejected(before.id, { label: "L".repeat(257) }, "parameter_invalid", "label");
      expect((await update(before.id, { label: "L".repeat(256) })).body.label).toBe("L".repeat(256));
    });

    it("a beneficiary of 141 characters is 400 parameter_invalid and one of 140 is accepted", async () => {
      const before = await create();
      await expectRejected(
        before.id,
        { bank_transfer: { beneficiary: "B".repeat(141) } },
        "parameter_invalid",
        "bank_transfer.beneficiary",
      );
      const { body } = await update(before.id, { bank_transfer: { beneficiary: "B".repeat(140) } });
      expect(body.bank_transfer.beneficiary).toBe("B".repeat(140));
    });

    it.each([
      ["label", { label: null }, "label"],
      ["bank_transfer", { bank_transfer: null }, "bank_transfer"],
      ["bank_transfer.beneficiary", { bank_transfer: { beneficiary: null } }, "bank_transfer.beneficiary"],
      ["bank_transfer.iban", { bank_transfer: { iban: null } }, "bank_transfer.iban"],
    ])("%s: null is 400 parameter_invalid and changes nothing", async (_, patch, param) => {
      const before = await create();
      await expectRejected(before.id, patch, "parameter_invalid", param);
    });

    it("an empty label is 400 parameter_invalid and changes nothing", async () => {
      const before = await create();
      await expectRejected(before.id, { label: "" }, "parameter_invalid", "label");
    });

    it("updating an unknown instruction id is 404 resource_missing", async () => {
      const res = await api.patch("/v1/payment-instructions/pmi_01JDB6N6Y8D4Q0Z5X4K3V2T1SR", { label: "x" });
      expectError(res, 404, "resource_missing");
    });
  });
});
