import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, createCustomer, type TestAccount, validCustomer } from "../../helpers/factories";
import { describeAuthMatrix, expectError } from "../../helpers/security";

const readCustomer = async (key: string, id: string) => (await client(key).get(`/v1/customers/${id}`)).body;

describe("GET and DELETE /v1/customers/:id", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  describe("happy path", () => {
    it("retrieve returns 200 with the customer as created", async () => {
      const created = await createCustomer(account.testKey, { email: "a@b.example" });
      const res = await api.get(`/v1/customers/${created.id}`);
      expectStatus(res, 200);
      expect(res.body).toEqual(created);
    });

    it("delete returns 204 with an empty body, after which the customer is gone", async () => {
      const { id } = await createCustomer(account.testKey);
      const res = await api.del(`/v1/customers/${id}`);
      expectStatus(res, 204);
      expect(res.text).toBe("");
      expect(res.headers.get("request-id")).toMatch(/^req_/);
      expectError(await api.get(`/v1/customers/${id}`), 404, "resource_missing");
    });

    it("a deleted customer disappears from the list", async () => {
      const own = await createAccount();
      const ownApi = client(own.testKey);
      const a = await createCustomer(own.testKey);
      const b = await createCustomer(own.testKey);
      const c = await createCustomer(own.testKey);
      expectStatus(await ownApi.del(`/v1/customers/${b.id}`), 204);
      const list = await ownApi.get("/v1/customers");
      expectStatus(list, 200);
      expect(list.body.data.map((x) => x.id)).toEqual([c.id, a.id]);
    });

    it.each([
      ["a short query (LIKE)", "Zq"],
      ["a long query (FTS)", "Zquxor"],
      ["the email", "gone@zquxor"],
    ])("a deleted customer disappears from q search by %s", async (_, q) => {
      const own = await createAccount();
      const ownApi = client(own.testKey);
      const { id: kept } = await createCustomer(own.testKey, {
        name: "Zquxor Kept",
        email: "kept@zquxor.example",
      });
      const { id: gone } = await createCustomer(own.testKey, {
        name: "Zquxor Gone",
        email: "gone@zquxor.example",
      });
      const search = async () => {
        const res = await ownApi.get(`/v1/customers?q=${encodeURIComponent(q)}`);
        expectStatus(res, 200);
        return res.body.data.map((x) => x.id);
      };
      expect(await search()).toContain(gone);
      expectStatus(await ownApi.del(`/v1/customers/${gone}`), 204);
      const after = await search();
      expect(after).not.toContain(gone);
      if (q !== "gone@zquxor") expect(after).toEqual([kept]);
    });

    it("a customer created after a delete is found by search, and the deleted one is not", async () => {
      const own = await createAccount();
      const ownApi = client(own.testKey);
      const { id: gone } = await createCustomer(own.testKey, { name: "Wobbleton Old" });
      expectStatus(await ownApi.del(`/v1/customers/${gone}`), 204);
      const { id: fresh } = await createCustomer(own.testKey, { name: "Fizzgig New" });
      const old = await ownApi.get("/v1/customers?q=wobbleton");
      expect(old.body.data).toEqual([]);
      const found = await ownApi.get("/v1/customers?q=fizzgig");
      expect(found.body.data.map((x) => x.id)).toEqual([fresh]);
    });
  });

  describe("errors", () => {
    it("retrieving an unknown id is 404 resource_missing with a message naming the id", async () => {
      const id = "cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR";
      const res = await api.get(`/v1/customers/${id}`);
      expectError(res, 404, "resource_missing");
      expect(res.body.error.message).toContain(id);
    });

    it("retrieving an id that is not a customer id at all is 404 resource_missing", async () => {
      const res = await api.get("/v1/customers/not-an-id");
      expectError(res, 404, "resource_missing");
      expect(res.body.error.message).toContain("not-an-id");
    });

    it("deleting an already deleted customer is 404 resource_missing", async () => {
      const { id } = await createCustomer(account.testKey);
      expectStatus(await api.del(`/v1/customers/${id}`), 204);
      const again = await api.del(`/v1/customers/${id}`);
      expectError(again, 404, "resource_missing");
      expect(again.body.error.message).toContain(id);
    });

    it("updating a deleted customer is 404 resource_missing and does not bring it back", async () => {
      const { id } = await createCustomer(account.testKey);
      expectStatus(await api.del(`/v1/customers/${id}`), 204);
      expectError(await api.patch(`/v1/customers/${id}`, { name: "Back" }), 404, "resource_missing");
      expectError(await api.get(`/v1/customers/${id}`), 404, "resource_missing");
    });

    it("deleting one customer leaves the others", async () => {
      const { id: keep } = await createCustomer(account.testKey);
      const { id: drop } = await createCustomer(account.testKey);
      expectStatus(await api.del(`/v1/customers/${drop}`), 204);
      expectStatus(await api.get(`/v1/customers/${keep}`), 200);
    });
  });
});

describe("security", () => {
  const create = async (key: string) => (await createCustomer(key)).id;

  describeAuthMatrix({ method: "GET", path: (id) => `/v1/customers/${id}`, create, read: readCustomer });
  describeAuthMatrix({
    method: "PATCH",
    path: (id) => `/v1/customers/${id}`,
    body: { name: "Hijacked", email: null, address: null },
    create,
    read: readCustomer,
  });
  describeAuthMatrix({ method: "DELETE", path: (id) => `/v1/customers/${id}`, create, read: readCustomer });
  describeAuthMatrix({ method: "GET", path: () => "/v1/customers" });
  describeAuthMatrix({ method: "POST", path: () => "/v1/customers", body: validCustomer });
});
