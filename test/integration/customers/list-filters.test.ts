import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, createCustomer } from "../../helpers/factories";
import { expectError } from "../../helpers/security";
import type { CustomerInput } from "../../helpers/types";

// Short queries below avoid the letters of ids (Crockford base32 has no I, L, O or U), so
// that an id never matches them by chance.
const specs = {
  acme: {
    name: "Acme Widgets",
    email: "Billing@Acme.example",
    tax_id: { country: "US", type: "local", value: "xyz-987654" },
  },
  deal: { name: "100% real_deal", tax_id: { country: "US", type: "local", value: "lu-77" } },
  louvre: {
    name: "Louvre Outlet",
    email: "shop@louvre.example",
    tax_id: { country: "ES", type: "es_nif", value: "12345678Z" },
    address: { line_1: "Rue de Rivoli", city: "Paris", postal_code: "75001", country: "fr" },
  },
  iberia: {
    name: "Outlet Iberia",
    tax_id: { country: "PT", type: "local", value: "PT-1" },
    address: { line_1: "Gran Vía 1", city: "Madrid", postal_code: "28013", country: "ES" },
  },
  porto: { name: "Porto Lda", tax_id: { country: "PT", type: "local", value: "PT-2" } },
} satisfies Record<string, CustomerInput>;

describe("GET /v1/customers filters", () => {
  let api: ApiClient;
  const id: Record<string, string> = {};
  beforeAll(async () => {
    const account = await createAccount();
    api = client(account.testKey);
    for (const [name, body] of Object.entries(specs)) id[name] = (await createCustomer(api, body)).id;
    // Noise that must never match: the other environment with the same data.
    for (const body of Object.values(specs)) await createCustomer(account.liveKey, body);
  });

  /**
   * The names listed for `query`, newest first (creation order is the order of `specs`); a
   * customer that is not one of `specs` shows as its id.
   */
  async function list(query: string): Promise<string[]> {
    const res = await api.get(`/v1/customers?${query}`);
    expectStatus(res, 200);
    const byId = Object.fromEntries(Object.entries(id).map(([k, v]) => [v, k]));
    return res.body.data.map((c) => byId[c.id] ?? c.id);
  }

  describe("q", () => {
    it.each([
      ["a long name substring", "widg", ["acme"]],
      ["a long name substring in another case", "WIDGETS", ["acme"]],
      ["a short name substring in mixed case (LIKE path)", "uV", ["louvre"]],
      ["an email substring in another case", "billing@acme", ["acme"]],
      ["a Tax ID value substring, lowercase", "xyz98", ["acme"]],
      ["a short Tax ID substring", "lu", ["deal"]],
      ["words shared by two customers", "outlet", ["iberia", "louvre"]],
      ["nothing that exists", "nothing-like-this", []],
    ])("q matches %s case-insensitively", async (_, q, expected) => {
      expect(await list(`q=${encodeURIComponent(q)}`)).toEqual(expected);
    });

    it.each(["ñ", "Ñ", "ña", "ÑA", "ñan", "ÑAND", "émi", "ÉMI", "é"])(
      "q=%s matches non-ASCII letters in any case, short and long",
      async (q) => {
        const own = await createAccount();
        const customer = await createCustomer(own.testKey, {
          name: "Ñandú Émile",
          tax_id: { country: "US", type: "local", value: "X1" },
        });
        const found = await client(own.testKey).get(`/v1/customers?q=${encodeURIComponent(q)}`);
        expect(found.body.data.map((c) => c.id)).toEqual([customer.id]);
      },
    );

    it("q matches a substring of the customer id, in any case", async () => {
      const body = (id.deal as string).slice(-10);
      expect(await list(`q=${body.toLowerCase()}`)).toEqual(["deal"]);
      expect(await list(`q=${body}`)).toEqual(["deal"]);
    });

    it.each([
      ["'0% r' (long, FTS path)", "0% r", ["deal"]],
      ["'l_d' (long, FTS path)", "l_d", ["deal"]],
      ["'_d' (short, LIKE path)", "_d", ["deal"]],
      ["'l_' (short, LIKE path)", "l_", ["deal"]],
      ["'%' alone (short, LIKE path), which does not match everything", "%", ["deal"]],
      ["'a%' (short), which a wildcard would match in most names", "a%", []],
      ["'a%e' (long), which a wildcard would match in 'Acme'", "a%e", []],
      ["'P_r' (long), which a wildcard would match in 'Porto'", "P_r", []],
      ["'%%' (short)", "%%", []],
      ["'%%%' (long)", "%%%", []],
    ])("%% and _ match literally: q=%s", async (_, q, expected) => {
      expect(await list(`q=${encodeURIComponent(q)}`)).toEqual(expected);
    });

    it("q with a double quote or FTS syntax is a literal substring, not a query", async () => {
      for (const q of ['"', 'a"b', "widg*", "acme OR porto", "NEAR(acme)", "name:acme"]) {
        expect(await list(`q=${encodeURIComponent(q)}`), q).toEqual([]);
      }
    });

    it("an empty q lists everything", async () => {
      expect(await list("q=")).toHaveLength(5);
    });

    it("q of 200 characters is accepted and of 201 is 400 param q", async () => {
      expect(await list(`q=${"x".repeat(200)}`)).toEqual([]);
      expectError(await api.get(`/v1/customers?q=${"x".repeat(201)}`), 400, "parameter_invalid", "q");
    });

    it.each(["%09", "%00", "%7F"])("q with a control character (%s) is 400 param q", async (ch) => {
      expectError(await api.get(`/v1/customers?q=ab${ch}cd`), 400, "parameter_invalid", "q");
    });

    it("q and country combine", async () => {
      expect(await list("q=outlet&country=FR")).toEqual(["louvre"]);
      expect(await list("q=outlet&country=ES")).toEqual(["iberia"]);
      expect(await list("q=ou&country=PT")).toEqual([]);
    });

    it("q keeps working across pages with the same filter", async () => {
      const first = await api.get("/v1/customers?q=outlet&limit=1");
      expect(first.body.has_more).toBe(true);
      const next = await api.get(`/v1/customers?q=outlet&limit=1&starting_after=${first.body.data[0]!.id}`);
      expectStatus(next, 200);
      expect(next.body.data.map((c) => c.id)).toEqual([id.louvre]);
      expect(next.body.has_more).toBe(false);
    });
  });

  describe("country", () => {
    it("country filters on the address country, and is uppercased", async () => {
      expect(await list("country=FR")).toEqual(["louvre"]);
      expect(await list("country=fr")).toEqual(["louvre"]);
    });

    it("a customer with an address does not match on its Tax ID country", async () => {
      // louvre's Tax ID is Spanish, iberia's is Portuguese: only the addresses count.
      expect(await list("country=ES")).toEqual(["iberia"]);
      expect(await list("country=PT")).toEqual(["porto"]);
    });

    it("a customer without an address matches on its Tax ID country", async () => {
      expect(await list("country=US")).toEqual(["deal", "acme"]);
    });

    it("the country a customer matches follows updates of its address", async () => {
      const own = await createAccount();
      const ownApi = client(own.testKey);
      const { id: cid } = await createCustomer(ownApi, specs.louvre);
      const inCountry = async (country: string) =>
        (await ownApi.get(`/v1/customers?country=${country}`)).body.data.map((c) => c.id);
      expect(await inCountry("FR")).toEqual([cid]);
      expectStatus(await ownApi.patch(`/v1/customers/${cid}`, { address: null }), 200);
      expect(await inCountry("FR")).toEqual([]);
      expect(await inCountry("ES")).toEqual([cid]);
      expectStatus(await ownApi.patch(`/v1/customers/${cid}`, { address: specs.iberia.address }), 200);
      expectStatus(await ownApi.patch(`/v1/customers/${cid}`, { address: { country: "IT" } }), 200);
      expect(await inCountry("IT")).toEqual([cid]);
      expect(await inCountry("ES")).toEqual([]);
    });

    it.each(["XX", "ESP", "E", "EL", "UK", "", "1A"])("country=%s is 400 param country", async (country) => {
      expectError(await api.get(`/v1/customers?country=${country}`), 400, "parameter_invalid", "country");
    });
  });

  describe("cursors under a filter", () => {
    it.each([
      ["starting_after", "country=PT", "louvre"],
      ["ending_before", "country=PT", "louvre"],
      ["starting_after", "q=outlet", "porto"],
      ["ending_before", "q=ou", "acme"],
    ])("a %s outside %s is 400 with that param", async (param, filter, name) => {
      const res = await api.get(`/v1/customers?${filter}&${param}=${id[name]}`);
      expectError(res, 400, "parameter_invalid", param);
    });

    // Found by a new user: a search answered 200 to a cursor naming no customer at all.
    it.each([
      ["q=outlet", "starting_after"],
      ["q=outlet", "ending_before"],
      ["q=ou", "starting_after"],
      ["q=Acme%20Widgets", "ending_before"],
    ])("a search list's unknown cursor is 400: %s with %s", async (filter, param) => {
      for (const cursor of ["cus_00000000000000000000000000", "cus_nope", "nope"]) {
        const res = await api.get(`/v1/customers?${filter}&${param}=${cursor}`);
        expectError(res, 400, "parameter_invalid", param);
      }
      // The id plan too: q is a customer's id.
      const res = await api.get(`/v1/customers?q=${id.acme}&${param}=cus_00000000000000000000000000`);
      expectError(res, 400, "parameter_invalid", param);
      // An account with no customers at all, and a country filter on top.
      const empty = client((await createAccount()).testKey);
      for (const query of [filter, `${filter}&country=PT`]) {
        const res = await empty.get(`/v1/customers?${query}&${param}=cus_00000000000000000000000000`);
        expectError(res, 400, "parameter_invalid", param);
      }
    });

    it("a cursor inside the filter is accepted", async () => {
      expect(await list(`country=US&ending_before=${id.acme}`)).toEqual(["deal"]);
    });
  });
});
