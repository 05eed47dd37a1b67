import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import {
  createAccount,
  createInstruction,
  type TestAccount,
  validInstruction,
} from "../../helpers/factories";
import { describeAuthMatrix, expectError } from "../../helpers/security";

const instructionCount = (accountId: string) => countRows("payment_instructions", accountId);

async function readInstruction(key: string, id: string) {
  return (await client(key).get(`/v1/payment-instructions/${id}`)).body;
}

describe("POST /v1/payment-instructions", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  /** The create is rejected with this error and no instruction row is written. */
  async function expectRejected(body: unknown, code: string, param: string) {
    const before = await instructionCount(account.id);
    const res = await api.post("/v1/payment-instructions", body);
    expectError(res, 400, code, param);
    expect(await instructionCount(account.id)).toBe(before);
    return res;
  }

  describe("happy path", () => {
    it("creates an instruction and returns 201 with the full payment_instruction object", async () => {
      const before = await instructionCount(account.id);
      const res = await api.post("/v1/payment-instructions", validInstruction);
      expectStatus(res, 201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^pmi_[0-9A-Z]{26}$/),
        object: "payment_instruction",
        live: false,
        account: account.id,
        label: "Main account",
        type: "bank_transfer",
        bank_transfer: {
          beneficiary: "Acme Servicios SL",
          iban: "ES9121000418450200051332",
          bic: "CAIXESBBXXX",
        },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: res.body.created_at,
      });
      expect(await instructionCount(account.id)).toBe(before + 1);
    });

    it("a created instruction reads back exactly as it was returned", async () => {
      const created = await api.post("/v1/payment-instructions", validInstruction);
      expectStatus(created, 201);
      const read = await api.get(`/v1/payment-instructions/${created.body.id}`);
      expectStatus(read, 200);
      expect(read.body).toEqual(created.body);
    });

    it("a live key creates a live instruction owned by the same account", async () => {
      const res = await client(account.liveKey).post("/v1/payment-instructions", validInstruction);
      expectStatus(res, 201);
      expect(res.body.live).toBe(true);
      expect(res.body.account).toBe(account.id);
    });

    it("bic is null when omitted", async () => {
      const { bic: _, ...withoutBic } = validInstruction.bank_transfer;
      const res = await api.post("/v1/payment-instructions", {
        ...validInstruction,
        bank_transfer: withoutBic,
      });
      expectStatus(res, 201);
      expect(res.body.bank_transfer.bic).toBeNull();
    });

    it("bic: null is accepted on create and stored as null", async () => {
      const res = await api.post("/v1/payment-instructions", {
        ...validInstruction,
        bank_transfer: { ...validInstruction.bank_transfer, bic: null },
      });
      expectStatus(res, 201);
      expect(res.body.bank_transfer.bic).toBeNull();
      expect((await readInstruction(account.testKey, res.body.id)).bank_transfer.bic).toBeNull();
    });

    it("IBAN and BIC are normalised: whitespace removed and uppercased", async () => {
      const res = await api.post("/v1/payment-instructions", {
        ...validInstruction,
        bank_transfer: {
          beneficiary: "Acme",
          iban: " es91 2100 0418\t4502 0005 1332 ",
          bic: "caix es bb xxx",
        },
      });
      expectStatus(res, 201);
      expect(res.body.bank_transfer).toEqual({
        beneficiary: "Acme",
        iban: "ES9121000418450200051332",
        bic: "CAIXESBBXXX",
      });
      expect((await readInstruction(account.testKey, res.body.id)).bank_transfer).toEqual(
        res.body.bank_transfer,
      );
    });

    it("label and beneficiary are never normalised: they read back exactly as sent", async () => {
      const label = "  main account — Ñandú iban es91 ";
      const beneficiary = " acme servicios sl  株式会社 ";
      const res = await api.post("/v1/payment-instructions", {
        ...validInstruction,
        label,
        bank_transfer: { ...validInstruction.bank_transfer, beneficiary },
      });
      expectStatus(res, 201);
      expect(res.body.label).toBe(label);
      expect(res.body.bank_transfer.beneficiary).toBe(beneficiary);
      const read = await readInstruction(account.testKey, res.body.id);
      expect(read.label).toBe(label);
      expect(read.bank_transfer.beneficiary).toBe(beneficiary);
    });

    it("a label of 256 characters and a beneficiary of 140 characters are accepted", async () => {
      const res = await api.post("/v1/payment-instructions", {
        ...validInstruction,
        label: "L".repeat(256),
        bank_transfer: { ...validInstruction.bank_transfer, beneficiary: "B".repeat(140) },
      });
      expectStatus(res, 201);
      expect(res.body.label).toBe("L".repeat(256));
      expect(res.body.bank_transfer.beneficiary).toBe("B".repeat(140));
    });
  });

  describe("errors", () => {
    it.each([
      ["another type", "card"],
      ["bank_transfer in other case", "BANK_TRANSFER"],
      ["null", null],
      ["a number", 1],
    ])("a type that is %s is 400 parameter_invalid with param type", async (_, type) => {
      await expectRejected({ ...validInstruction, type }, "parameter_invalid", "type");
    });

    it.each([["label"], ["type"], ["bank_transfer"]])(
      "a missing %s is 400 parameter_missing naming it",
      async (field) => {
        const body: Record<string, unknown> = { ...validInstruction };
        delete body[field];
        await expectRejected(body, "parameter_missing", field);
      },
    );

    it.each([["beneficiary"], ["iban"]])(
      "a missing bank_transfer.%s is 400 parameter_missing with the dotted param",
      async (field) => {
        const bankTransfer: Record<string, unknown> = { ...validInstruction.bank_transfer };
        delete bankTransfer[field];
        await expectRejected(
          { ...validInstruction, bank_transfer: bankTransfer },
          "parameter_missing",
          `bank_transfer.${field}`,
        );
      },
    );

    it("an unknown top-level field is 400 parameter_unknown naming it", async () => {
      await expectRejected({ ...validInstruction, currency: "EUR" }, "parameter_unknown", "currency");
    });

    it("an unknown field inside bank_transfer is 400 parameter_unknown with the dotted param", async () => {
      await expectRejected(
        { ...validInstruction, bank_transfer: { ...validInstruction.bank_transfer, sort_code: "123456" } },
        "parameter_unknown",
        "bank_transfer.sort_code",
      );
    });

    it("a label of 257 characters is 400 parameter_invalid with param label", async () => {
      await expectRejected({ ...validInstruction, label: "L".repeat(257) }, "parameter_invalid", "label");
    });

    it("a beneficiary of 141 characters is 400 parameter_invalid with param bank_transfer.beneficiary", async () => {
      await expectRejected(
        {
          ...validInstruction,
          bank_transfer: { ...validInstruction.bank_transfer, beneficiary: "B".repeat(141) },
        },
        "parameter_invalid",
        "bank_transfer.beneficiary",
      );
    });

    it.each([
      ["empty", ""],
      ["a control character", "Main\taccount"],
      ["a NUL", "Main\u0000"],
      ["a lone surrogate", "Main \ud800"],
      ["a number", 42],
      ["null", null],
    ])("a label that is %s is 400 parameter_invalid with param label", async (_, label) => {
      await expectRejected({ ...validInstruction, label }, "parameter_invalid", "label");
    });

    it.each([
      ["empty", ""],
      ["a newline", "Acme\nSL"],
      ["null", null],
    ])("a beneficiary that is %s is 400 parameter_invalid", async (_, beneficiary) => {
      await expectRejected(
        { ...validInstruction, bank_transfer: { ...validInstruction.bank_transfer, beneficiary } },
        "parameter_invalid",
        "bank_transfer.beneficiary",
      );
    });

    it.each([
      ["a string", "ES9121000418450200051332"],
      ["null", null],
      ["an array", [validInstruction.bank_transfer]],
    ])(
      "a bank_transfer that is %s is 400 parameter_invalid with param bank_transfer",
      async (_, bankTransfer) => {
        await expectRejected(
          { ...validInstruction, bank_transfer: bankTransfer },
          "parameter_invalid",
          "bank_transfer",
        );
      },
    );
  });
});

describe("GET /v1/payment-instructions/:id and DELETE /v1/payment-instructions/:id", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  describe("happy path", () => {
    it("deleting an instruction is 204 with no body, and it is gone from retrieve and list", async () => {
      const { id } = await createInstruction(account.testKey);
      const before = await instructionCount(account.id);
      const res = await api.del(`/v1/payment-instructions/${id}`);
      expectStatus(res, 204);
      expect(res.text).toBe("");
      expect(await instructionCount(account.id)).toBe(before - 1);
      expect(
        await env.DB.prepare("SELECT id FROM payment_instructions WHERE id = ?").bind(id).first(),
      ).toBeNull();
      expectError(await api.get(`/v1/payment-instructions/${id}`), 404, "resource_missing");
      const list = await api.get("/v1/payment-instructions?limit=100");
      expect(list.body.data.map((p) => p.id)).not.toContain(id);
    });

    it("deleting one instruction leaves the others", async () => {
      const { id: keep } = await createInstruction(account.testKey);
      const { id: drop } = await createInstruction(account.testKey);
      expectStatus(await api.del(`/v1/payment-instructions/${drop}`), 204);
      expectStatus(await api.get(`/v1/payment-instructions/${keep}`), 200);
    });
  });

  describe("errors", () => {
    it("retrieving an unknown instruction id is 404 resource_missing naming the id", async () => {
      const id = "pmi_01JDB6N6Y8D4Q0Z5X4K3V2T1SR";
      const res = await api.get(`/v1/payment-instructions/${id}`);
      expectError(res, 404, "resource_missing");
      expect(res.body.error.message).toContain(id);
    });

    it("retrieving an id that is not an instruction id at all is 404 resource_missing", async () => {
      expectError(await api.get("/v1/payment-instructions/not-an-id"), 404, "resource_missing");
    });

    it("deleting an already deleted instruction is 404 resource_missing", async () => {
      const { id } = await createInstruction(account.testKey);
      expectStatus(await api.del(`/v1/payment-instructions/${id}`), 204);
      const again = await api.del(`/v1/payment-instructions/${id}`);
      expectError(again, 404, "resource_missing");
      expect(again.body.error.message).toContain(id);
    });

    it("updating a deleted instruction is 404 resource_missing and does not bring it back", async () => {
      const { id } = await createInstruction(account.testKey);
      expectStatus(await api.del(`/v1/payment-instructions/${id}`), 204);
      expectError(
        await api.patch(`/v1/payment-instructions/${id}`, { label: "Back" }),
        404,
        "resource_missing",
      );
      expectError(await api.get(`/v1/payment-instructions/${id}`), 404, "resource_missing");
    });
  });
});

describe("security", () => {
  const create = async (key: string) => (await createInstruction(key)).id;
  const path = (id: string) => `/v1/payment-instructions/${id}`;

  describeAuthMatrix({ method: "GET", path, create, read: readInstruction });
  describeAuthMatrix({
    method: "PATCH",
    path,
    body: { label: "Hijacked", bank_transfer: { iban: "GB82WEST12345698765432", bic: null } },
    create,
    read: readInstruction,
  });
  describeAuthMatrix({ method: "DELETE", path, create, read: readInstruction });
  describeAuthMatrix({ method: "GET", path: () => "/v1/payment-instructions" });
  describeAuthMatrix({ method: "POST", path: () => "/v1/payment-instructions", body: validInstruction });
});
