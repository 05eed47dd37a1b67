import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../../src/lib/ids";
import { client, expectStatus } from "../../helpers/api";
import { createAccount, createInstruction, type TestAccount } from "../../helpers/factories";
import { expectError } from "../../helpers/security";
import type { List, PaymentInstruction } from "../../helpers/types";

type Page = List<PaymentInstruction>;

async function list(key: string, query: `?${string}` | "" = ""): Promise<Page> {
  const res = await client(key).get(`/v1/payment-instructions${query}`);
  expectStatus(res, 200);
  return res.body;
}

const ids = (page: Page) => page.data.map((p) => p.id);

describe("GET /v1/payment-instructions", () => {
  // Five instructions, oldest first; the list shows them newest first.
  let account: TestAccount;
  let created: string[];
  let newestFirst: string[];
  beforeAll(async () => {
    account = await createAccount();
    created = [];
    for (const label of ["A", "B", "C", "D", "E"])
      created.push((await createInstruction(account.testKey, { label })).id);
    newestFirst = [...created].reverse();
  });

  describe("happy path", () => {
    it("lists the caller's instructions newest first as a list object with full instructions", async () => {
      const res = await client(account.testKey).get("/v1/payment-instructions");
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ object: "list", has_more: false });
      expect(ids(res.body)).toEqual(newestFirst);
      const first = await client(account.testKey).get(`/v1/payment-instructions/${newestFirst[0]}`);
      expect(res.body.data[0]).toEqual(first.body);
    });

    it("an account without instructions lists an empty page without more", async () => {
      const empty = await createAccount();
      expect(await list(empty.testKey)).toMatchObject({ object: "list", has_more: false, data: [] });
    });

    it("limit caps the page and has_more says that older instructions remain", async () => {
      const page = await list(account.testKey, "?limit=2");
      expect(ids(page)).toEqual(newestFirst.slice(0, 2));
      expect(page.has_more).toBe(true);
    });

    it("a limit equal to the number of instructions returns them all with has_more false", async () => {
      const page = await list(account.testKey, "?limit=5");
      expect(ids(page)).toEqual(newestFirst);
      expect(page.has_more).toBe(false);
    });

    it("starting_after pages forward through older instructions until has_more is false", async () => {
      const seen: string[] = [];
      let page = await list(account.testKey, "?limit=2");
      seen.push(...ids(page));
      const hasMore = [page.has_more];
      while (page.has_more) {
        page = await list(account.testKey, `?limit=2&starting_after=${seen.at(-1)}`);
        seen.push(...ids(page));
        hasMore.push(page.has_more);
      }
      expect(seen).toEqual(newestFirst);
      expect(hasMore).toEqual([true, true, false]);
    });

    it("ending_before pages back to newer instructions, newest first, with has_more about newer ones", async () => {
      // newestFirst = [E, D, C, B, A]
      const beforeB = await list(account.testKey, `?limit=2&ending_before=${newestFirst[3]}`);
      expect(ids(beforeB)).toEqual([newestFirst[1], newestFirst[2]]);
      expect(beforeB.has_more).toBe(true);
      const beforeD = await list(account.testKey, `?limit=2&ending_before=${newestFirst[1]}`);
      expect(ids(beforeD)).toEqual([newestFirst[0]]);
      expect(beforeD.has_more).toBe(false);
    });

    it("starting_after the oldest instruction is an empty page without more", async () => {
      const page = await list(account.testKey, `?starting_after=${created[0]}`);
      expect(page).toMatchObject({ has_more: false, data: [] });
    });

    it("limit defaults to 25", async () => {
      const many = await createAccount();
      for (let i = 0; i < 26; i++) await createInstruction(many.testKey, { label: `Bank ${i}` });
      const page = await list(many.testKey);
      expect(page.data).toHaveLength(25);
      expect(page.has_more).toBe(true);
      expect((await list(many.testKey, "?limit=100")).data).toHaveLength(26);
    });

    it("a deleted instruction is absent from the list", async () => {
      const own = await createAccount();
      const { id: keep } = await createInstruction(own.testKey);
      const { id: drop } = await createInstruction(own.testKey);
      expectStatus(await client(own.testKey).del(`/v1/payment-instructions/${drop}`), 204);
      expect(ids(await list(own.testKey))).toEqual([keep]);
    });
  });

  describe("errors", () => {
    it.each([["0"], ["101"], ["-1"], ["1.5"], ["abc"], [""]])(
      "limit=%s is 400 parameter_invalid with param limit",
      async (limit) => {
        expectError(
          await client(account.testKey).get(`/v1/payment-instructions?limit=${limit}`),
          400,
          "parameter_invalid",
          "limit",
        );
      },
    );

    it("starting_after and ending_before together are 400 parameter_invalid", async () => {
      const res = await client(account.testKey).get(
        `/v1/payment-instructions?starting_after=${created[1]}&ending_before=${created[3]}`,
      );
      expectStatus(res, 400);
      expect(res.body.error.code).toBe("parameter_invalid");
      expect(["starting_after", "ending_before"]).toContain(res.body.error.param);
    });

    it("an unknown query parameter is 400 parameter_unknown", async () => {
      expectError(
        await client(account.testKey).get("/v1/payment-instructions?label=A"),
        400,
        "parameter_unknown",
        "label",
      );
    });

    for (const param of ["starting_after", "ending_before"] as const) {
      describe(`${param} must be an instruction of the list being paged`, () => {
        const expectBadCursor = async (key: string, cursor: string) =>
          expectError(
            await client(key).get(`/v1/payment-instructions?${param}=${encodeURIComponent(cursor)}`),
            400,
            "parameter_invalid",
            param,
          );

        it(`a ${param} that is not an id is 400 with param ${param}`, async () => {
          await expectBadCursor(account.testKey, "garbage");
        });

        it(`a ${param} that is an unknown instruction id is 400 with param ${param}`, async () => {
          await expectBadCursor(account.testKey, newId("paymentInstruction"));
        });

        it(`a ${param} that is the id of another kind of object is 400 with param ${param}`, async () => {
          await expectBadCursor(account.testKey, account.id);
        });

        it(`a ${param} that is another account's instruction is 400 with param ${param}`, async () => {
          const stranger = await createAccount();
          await expectBadCursor(stranger.testKey, created[2] as string);
        });

        it(`a ${param} that is the other environment's instruction is 400 with param ${param}`, async () => {
          await expectBadCursor(account.liveKey, created[2] as string);
          const { id: live } = await createInstruction(account.liveKey);
          await expectBadCursor(account.testKey, live);
        });

        it(`a ${param} that is a deleted instruction is 400 with param ${param}`, async () => {
          const { id: gone } = await createInstruction(account.testKey);
          expectStatus(await client(account.testKey).del(`/v1/payment-instructions/${gone}`), 204);
          await expectBadCursor(account.testKey, gone);
        });
      });
    }
  });

  describe("security", () => {
    it("test and live lists never mix: each key lists only its environment's instructions", async () => {
      const own = await createAccount();
      const first = await createInstruction(own.testKey);
      const second = await createInstruction(own.testKey);
      const live = await createInstruction(own.liveKey);
      const testPage = await list(own.testKey, "?limit=100");
      const livePage = await list(own.liveKey, "?limit=100");
      expect(ids(testPage)).toEqual([second.id, first.id]);
      expect(ids(livePage)).toEqual([live.id]);
      expect(testPage.data.every((p) => p.live === false)).toBe(true);
      expect(livePage.data.every((p) => p.live === true)).toBe(true);
    });

    it("another account's instructions never appear in the caller's list", async () => {
      const stranger = await createAccount();
      const { id: theirs } = await createInstruction(stranger.testKey);
      const mine = await list(account.testKey, "?limit=100");
      expect(ids(mine)).not.toContain(theirs);
      expect(mine.data.every((p) => p.account === account.id)).toBe(true);
      expect(ids(await list(stranger.testKey))).toEqual([theirs]);
    });

    it("a live instruction is 404 for the test key and a test one is 404 for the live key", async () => {
      const own = await createAccount();
      const { id: test } = await createInstruction(own.testKey);
      const { id: live } = await createInstruction(own.liveKey);
      expectError(await client(own.liveKey).get(`/v1/payment-instructions/${test}`), 404, "resource_missing");
      expectError(await client(own.testKey).get(`/v1/payment-instructions/${live}`), 404, "resource_missing");
    });
  });
});
