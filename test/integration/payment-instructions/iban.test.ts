import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import { createAccount, type TestAccount, validInstruction } from "../../helpers/factories";
import { expectError } from "../../helpers/security";

/** `validInstruction` with `bankTransfer` as its bank details (its beneficiary unless given). */
const withBankTransfer = (bankTransfer: Record<string, unknown>) => ({
  ...validInstruction,
  bank_transfer: { beneficiary: validInstruction.bank_transfer.beneficiary, ...bankTransfer },
});

const instructionCount = (accountId: string) => countRows("payment_instructions", accountId);

/** ISO 13616 check digits for `country` + `bban`, computed here independently of the service. */
function ibanCheckDigits(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  return String(98 - Number(BigInt(digits) % 97n)).padStart(2, "0");
}

// A valid Spanish BBAN: entidad 2100, oficina 0418, DC 45, cuenta 0200051332.
const ES_BBAN = "21000418450200051332";

/** The Spanish IBAN whose BBAN has the DC pair replaced, with correct ISO check digits. */
function spanishIbanWithDc(dc: string): string {
  const bban = `${ES_BBAN.slice(0, 8)}${dc}${ES_BBAN.slice(10)}`;
  return `ES${ibanCheckDigits("ES", bban)}${bban}`;
}

describe("IBAN and BIC validation on POST /v1/payment-instructions", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  /** The create is rejected at `param` with a message matching `message`; nothing is written. */
  async function expectRejected(bankTransfer: Record<string, unknown>, param: string, message: RegExp) {
    const before = await instructionCount(account.id);
    const res = await api.post("/v1/payment-instructions", withBankTransfer(bankTransfer));
    expectError(res, 400, "parameter_invalid", param);
    expect(res.body.error.message).toMatch(message);
    expect(await instructionCount(account.id)).toBe(before);
    return res;
  }

  describe("happy path", () => {
    it.each([
      ["DE", "DE89370400440532013000"],
      ["GB", "GB82WEST12345698765432"],
      ["FR", "FR1420041010050500013M02606"],
      ["NL", "NL91ABNA0417164300"],
      ["ES", "ES9121000418450200051332"],
      ["IT", "IT60X0542811101000000123456"],
      ["BE", "BE68539007547034"],
      ["AT", "AT611904300234573201"],
      ["CH", "CH9300762011623852957"],
      ["PL", "PL61109010140000071219812874"],
      ["PT", "PT50000201231234567890154"],
      ["SE", "SE4550000000058398257466"],
      ["NO (shortest in the registry)", "NO9386011117947"],
      ["MT (letters inside the BBAN)", "MT84MALT011000012345MTLCAST001S"],
      ["IE", "IE29AIBK93115212345678"],
      ["GR", "GR1601101250000000012300695"],
    ])("a valid %s IBAN is accepted and stored as sent", async (_, iban) => {
      const res = await api.post("/v1/payment-instructions", withBankTransfer({ iban }));
      expectStatus(res, 201);
      expect(res.body.bank_transfer.iban).toBe(iban);
    });

    it("a lowercase IBAN written in groups of four is stored uppercased without spaces", async () => {
      const res = await api.post(
        "/v1/payment-instructions",
        withBankTransfer({ iban: "fr14 2004 1010 0505 0001 3m02 606" }),
      );
      expectStatus(res, 201);
      expect(res.body.bank_transfer.iban).toBe("FR1420041010050500013M02606");
    });

    it.each([
      ["8 characters", "DEUTDEFF", "DEUTDEFF"],
      ["11 characters", "DEUTDEFF500", "DEUTDEFF500"],
      ["lowercase with spaces", " deut de ff 500 ", "DEUTDEFF500"],
      ["digits in the location", "NEDSZAJJ", "NEDSZAJJ"],
    ])("a BIC of %s is accepted and normalised", async (_, bic, stored) => {
      const res = await api.post(
        "/v1/payment-instructions",
        withBankTransfer({ iban: "DE89370400440532013000", bic }),
      );
      expectStatus(res, 201);
      expect(res.body.bank_transfer.bic).toBe(stored);
    });

    it("the test's own check-digit computation reproduces a known valid Spanish IBAN", () => {
      // Guards the helper: the wrong-DC IBANs below only prove something if it is right.
      expect(spanishIbanWithDc("45")).toBe("ES9121000418450200051332");
    });
  });

  describe("IBAN errors", () => {
    it.each([
      ["DE with wrong check digits", "DE88370400440532013000"],
      ["GB with wrong check digits", "GB83WEST12345698765432"],
      ["DE with a BBAN digit changed", "DE89370400440532013001"],
      ["DE with two BBAN digits swapped", "DE89370400440532010300"],
      ["check digits 00", "DE00370400440532013000"],
      ["check digits 99", "DE99370400440532013000"],
    ])("an IBAN of %s is rejected for its check digits", async (_, iban) => {
      await expectRejected({ iban }, "bank_transfer.iban", /check digits/i);
    });

    it.each([
      ["one character short", "DE8937040044053201300", /\b22\b/],
      ["one character long", "DE893704004405320130000", /\b22\b/],
      ["a GB IBAN without its last digit", "GB82WEST1234569876543", /\b22\b/],
      ["NL with one more digit", "NL91ABNA04171643001", /\b18\b/],
    ])("an IBAN %s is rejected for its length", async (_, iban, length) => {
      const res = await expectRejected({ iban }, "bank_transfer.iban", /characters/i);
      expect(res.body.error.message).toMatch(length);
    });

    it.each([
      ["US", "US64SVBKUS6S3300958879"],
      ["CA", "CA89370400440532013000"],
      ["XX", "XX89370400440532013000"],
    ])(
      "an IBAN from %s, not an IBAN registry country, is rejected for its country",
      async (country, iban) => {
        await expectRejected(
          { iban },
          "bank_transfer.iban",
          new RegExp(`country.*${country}|${country}.*country`, "i"),
        );
      },
    );

    it.each([
      ["hyphens", "DE89-3704-0044-0532-0130-00"],
      ["punctuation", "DE89370400440532013000!"],
      ["a letter with an accent", "DÉ89370400440532013000"],
      ["a German sharp s", "DE89370400440532013ß00"],
      ["only spaces", "   "],
      ["nothing", ""],
    ])("an IBAN with %s is rejected for its characters", async (_, iban) => {
      await expectRejected({ iban }, "bank_transfer.iban", /letters.*digits/i);
    });

    it("an IBAN with letters where the country's account part needs digits is rejected", async () => {
      await expectRejected({ iban: "DE89370400440532013A00" }, "bank_transfer.iban", /account part|digits/i);
    });

    it.each([
      ["the first DC digit changed", "55"],
      ["the second DC digit changed", "46"],
    ])(
      "a Spanish IBAN with %s, yet a correct mod-97, is rejected for its national check digits",
      async (_, dc) => {
        const iban = spanishIbanWithDc(dc);
        expect(iban).not.toBe("ES9121000418450200051332");
        await expectRejected({ iban }, "bank_transfer.iban", /national check digits/i);
      },
    );

    it.each([
      ["a number", 1234],
      ["null", null],
      ["an object", { country: "DE" }],
    ])("an IBAN that is %s is 400 parameter_invalid with param bank_transfer.iban", async (_, iban) => {
      const before = await instructionCount(account.id);
      const res = await api.post("/v1/payment-instructions", withBankTransfer({ iban }));
      expectError(res, 400, "parameter_invalid", "bank_transfer.iban");
      expect(await instructionCount(account.id)).toBe(before);
    });
  });

  describe("BIC errors", () => {
    it.each([
      ["7 characters", "DEUTDEF"],
      ["9 characters", "DEUTDEFF5"],
      ["10 characters", "DEUTDEFF50"],
      ["12 characters", "DEUTDEFF5000"],
      ["nothing", ""],
    ])("a BIC of %s is rejected for its length", async (_, bic) => {
      await expectRejected({ iban: "DE89370400440532013000", bic }, "bank_transfer.bic", /8 or 11/);
    });

    it.each([
      ["ZZ", "DEUTZZFF"],
      ["XX", "DEUTXXFF500"],
    ])("a BIC with country code %s, not an ISO 3166-1 country, is rejected", async (country, bic) => {
      await expectRejected(
        { iban: "DE89370400440532013000", bic },
        "bank_transfer.bic",
        new RegExp(`country.*${country}`, "i"),
      );
    });

    it.each([
      ["digits in the bank code", "DE1TDEFF"],
      ["digits in the country code", "DEUT1EFF"],
      ["punctuation", "DEUT-DEFF"],
    ])("a BIC with %s is rejected for its shape", async (_, bic) => {
      const before = await instructionCount(account.id);
      const res = await api.post(
        "/v1/payment-instructions",
        withBankTransfer({ iban: "DE89370400440532013000", bic }),
      );
      expectError(res, 400, "parameter_invalid", "bank_transfer.bic");
      expect(await instructionCount(account.id)).toBe(before);
    });

    it("a BIC that is not a string is 400 parameter_invalid with param bank_transfer.bic", async () => {
      await expectRejected({ iban: "DE89370400440532013000", bic: 12345678 }, "bank_transfer.bic", /./);
    });
  });
});
