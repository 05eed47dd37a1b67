import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, createCustomer, insertCustomers, type TestAccount } from "../../helpers/factories";
import { expectError } from "../../helpers/security";

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((c) => c.id);
const newestFirst = (list: string[]) => [...list].reverse();

async function page(api: ApiClient, query: string) {
  const res = await api.get(`/v1/customers?${query}`);
  expectStatus(res, 200);
  return res;
}

describe("GET /v1/customers pagination", () => {
  describe("happy path", () => {
    it("returns the list envelope, newest first, with the default limit of 25", async () => {
      const account = await createAccount();
      const created = await insertCustomers(account.id, 30);
      const res = await page(client(account.testKey), "");
      expect(res.body).toMatchObject({ object: "list", url: "/v1/customers", has_more: true });
      expect(ids(res)).toEqual(newestFirst(created).slice(0, 25));
    });

    it("customers created through the API list newest first", async () => {
      const account = await createAccount();
      const api = client(account.testKey);
      const created: string[] = [];
      for (const name of ["First", "Second", "Third"]) {
        const tax_id = { country: "US", type: "local", value: name } as const;
        created.push((await createCustomer(api, { name, tax_id })).id);
      }
      const res = await page(api, "");
      expect(ids(res)).toEqual(newestFirst(created));
      expect(res.body.data.map((c) => c.name)).toEqual(["Third", "Second", "First"]);
      expect(res.body.has_more).toBe(false);
    });

    it("an account without customers lists an empty page without more", async () => {
      const account = await createAccount();
      expect((await page(client(account.testKey), "")).body).toEqual({
        object: "list",
        url: "/v1/customers",
        has_more: false,
        data: [],
      });
    });

    it.each([1, 100])("limit=%i is accepted and returns that many", async (limit) => {
      const account = await createAccount();
      const created = await insertCustomers(account.id, 101);
      const res = await page(client(account.testKey), `limit=${limit}`);
      expect(ids(res)).toEqual(newestFirst(created).slice(0, limit));
      expect(res.body.has_more).toBe(true);
    });
  });

  describe("cursors", () => {
    // c[0] is the oldest, c[6] the newest.
    let c: string[];
    let api: ApiClient;
    beforeAll(async () => {
      const account = await createAccount();
      c = await insertCustomers(account.id, 7);
      api = client(account.testKey);
    });

    const at = (i: number) => c[i] as string;
    const expectPage = async (query: string, expected: number[], hasMore: boolean) => {
      const res = await page(api, query);
      expect(ids(res), res.text).toEqual(expected.map(at));
      expect(res.body.has_more, res.text).toBe(hasMore);
    };

    it("starting_after returns the older customers, newest first, with has_more", async () => {
      await expectPage(`limit=3&starting_after=${at(6)}`, [5, 4, 3], true);
    });

    it("starting_after a page that ends exactly at the oldest has has_more false", async () => {
      await expectPage(`limit=3&starting_after=${at(3)}`, [2, 1, 0], false);
    });

    it("starting_after the oldest returns an empty page without more", async () => {
      await expectPage(`limit=3&starting_after=${at(0)}`, [], false);
    });

    it("ending_before returns the newer customers next to the cursor, still newest first", async () => {
      await expectPage(`limit=3&ending_before=${at(0)}`, [3, 2, 1], true);
    });

    it("ending_before a page that ends exactly at the newest has has_more false", async () => {
      await expectPage(`limit=3&ending_before=${at(3)}`, [6, 5, 4], false);
    });

    it("ending_before near the newest returns what is left without more", async () => {
      await expectPage(`limit=3&ending_before=${at(5)}`, [6], false);
      await expectPage(`limit=3&ending_before=${at(6)}`, [], false);
    });

    it("the first page without a cursor has has_more false when it holds everything", async () => {
      await expectPage("limit=7", [6, 5, 4, 3, 2, 1, 0], false);
      await expectPage("limit=6", [6, 5, 4, 3, 2, 1], true);
    });
  });

  it("walking forward with starting_after yields every id once in descending order, and back again with ending_before", async () => {
    const account = await createAccount();
    const api = client(account.testKey);
    const all = newestFirst(await insertCustomers(account.id, 23));

    const forward: string[][] = [];
    let res = await page(api, "limit=5");
    forward.push(ids(res));
    while (res.body.has_more) {
      res = await page(api, `limit=5&starting_after=${forward.at(-1)?.at(-1)}`);
      forward.push(ids(res));
    }
    expect(forward.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
    expect(forward.flat()).toEqual(all);

    const back: string[][] = [forward.at(-1) as string[]];
    do {
      res = await page(api, `limit=5&ending_before=${back[0]?.[0]}`);
      back.unshift(ids(res));
    } while (res.body.has_more);
    expect(back.flat()).toEqual(all);
  });

  describe("errors", () => {
    let account: TestAccount;
    let api: ApiClient;
    let own: string[];
    let live: string;
    beforeAll(async () => {
      account = await createAccount();
      api = client(account.testKey);
      own = await insertCustomers(account.id, 3);
      live = (await insertCustomers(account.id, 1, { live: true }))[0] as string;
    });

    it.each([
      "limit=0",
      "limit=101",
      "limit=-1",
      "limit=1.5",
      "limit=abc",
      "limit=",
      "limit=1e2",
      "limit=%205",
      "limit=1&limit=2",
    ])("%s is 400 parameter_invalid param limit", async (query) => {
      expectError(await api.get(`/v1/customers?${query}`), 400, "parameter_invalid", "limit");
    });

    it("starting_after and ending_before together are 400 with param ending_before", async () => {
      const res = await api.get(`/v1/customers?starting_after=${own[2]}&ending_before=${own[0]}`);
      expectError(res, 400, "parameter_invalid", "ending_before");
    });

    it("an unknown query parameter is 400 parameter_unknown naming it", async () => {
      expectError(await api.get("/v1/customers?sort=name"), 400, "parameter_unknown", "sort");
    });

    it.each(["starting_after", "ending_before"])("a repeated %s is 400 with that param", async (param) => {
      const res = await api.get(`/v1/customers?${param}=${own[1]}&${param}=${own[1]}`);
      expectError(res, 400, "parameter_invalid", param);
    });

    describe.each(["starting_after", "ending_before"])("a %s that is not in the list is 400", (param) => {
      const expectRejected = async (cursor: string, query = "", key = account.testKey) => {
        const res = await client(key).get(`/v1/customers?${query}${param}=${encodeURIComponent(cursor)}`);
        expectError(res, 400, "parameter_invalid", param);
      };

      it("an unknown customer id", async () => {
        await expectRejected("cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR");
      });

      it("another account's customer id", async () => {
        const stranger = await createAccount();
        const [theirs] = await insertCustomers(stranger.id, 1);
        await expectRejected(theirs as string);
      });

      it("a customer id of the other environment, both ways", async () => {
        await expectRejected(live);
        await expectRejected(own[1] as string, "", account.liveKey);
      });

      it.each([
        ["a Tax ID id", "txi_01JDB6N6Y8D4Q0Z5X4K3V2T1SR"],
        ["garbage", "garbage"],
        ["an empty string", ""],
        ["a lowercased customer id", "cus_01jdb6n6y8d4q0z5x4k3v2t1sr"],
        ["SQL", "' OR 1=1 --"],
      ])("%s", async (_, cursor) => {
        await expectRejected(cursor);
      });
    });
  });
});

describe("GET /v1/customers environments and accounts", () => {
  it("test and live data never mix in lists", async () => {
    const account = await createAccount();
    const test = await insertCustomers(account.id, 3);
    const live = await insertCustomers(account.id, 2, { live: true });
    const testPage = await page(client(account.testKey), "");
    const livePage = await page(client(account.liveKey), "");
    expect(ids(testPage)).toEqual(newestFirst(test));
    expect(ids(livePage)).toEqual(newestFirst(live));
    expect(testPage.body.data.every((x) => x.live === false)).toBe(true);
    expect(livePage.body.data.every((x) => x.live === true)).toBe(true);
  });

  it("another account's customers never appear, not even through q or country", async () => {
    const mine = await createAccount();
    const theirs = await createAccount();
    const own = await insertCustomers(mine.id, 2, { name: () => "Shared Name", country: () => "FR" });
    await insertCustomers(theirs.id, 5, { name: () => "Shared Name", country: () => "FR" });
    const api = client(mine.testKey);
    for (const query of ["", "q=shared", "q=Sh", "country=FR", "limit=100"]) {
      expect(ids(await page(api, query)), query).toEqual(newestFirst(own));
    }
  });
});
