import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus, request } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import {
  createAccount,
  createCustomer,
  createDestination,
  type TestAccount,
  validAddress,
  validCustomer,
} from "../../helpers/factories";
import { esIssuer } from "../../helpers/invoices";
import { dbSnapshot, expectError } from "../../helpers/security";

/** Sets `value` at a dotted path of a copy of the valid customer (with an address). */
function withField(path: string, value: unknown): Record<string, any> {
  const body: Record<string, any> = structuredClone({ ...validCustomer, address: validAddress });
  const keys = path.split(".");
  const last = keys.pop() as string;
  let target = body;
  for (const key of keys) target = target[key];
  target[last] = value;
  return body;
}

describe("input hygiene", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  const customerCount = () => countRows("customers", account.id);

  async function expectCreateRejected(body: unknown, status: number, code: string, param?: string) {
    const before = await customerCount();
    expectError(await api.post("/v1/customers", body), status, code, param);
    expect(await customerCount()).toBe(before);
  }

  async function rawCreate(rawBody: string) {
    return request("POST", "/v1/customers", undefined, {
      key: account.testKey,
      rawBody,
      headers: { "content-type": "application/json" },
    });
  }

  describe("strings", () => {
    const fields = [
      "name",
      "email",
      "phone",
      "address.line_1",
      "address.city",
      "address.state",
      "tax_id.value",
    ];
    const controls: [string, string][] = [
      ["a tab", "\t"],
      ["a newline", "\n"],
      ["NUL (\\u0000)", "\u0000"],
      ["DEL (\\u007f)", "\u007f"],
      ["a C1 control (\\u0085)", "\u0085"],
      // Unicode's bidirectional override and isolate (src/lib/fields.ts: Trojan Source).
      ["a right-to-left override (\\u202e)", "\u202e"],
      ["a right-to-left isolate (\\u2067)", "\u2067"],
    ];
    for (const field of fields) {
      it.each(controls)(`${field} with %s is 400 with param ${field} and writes nothing`, async (_, ch) => {
        const value = field === "email" ? `a${ch}b@acme.example` : `B1234${ch}5674`;
        await expectCreateRejected(withField(field, value), 400, "parameter_invalid", field);
      });
    }

    // XML cannot hold them: the invoice's VERI*FACTU record could not be written.
    it.each([
      ["U+FFFE", "\ufffe"],
      ["U+FFFF", "\uffff"],
    ])("a name with the noncharacter %s is 400 param name and writes nothing", async (_, ch) => {
      await expectCreateRejected(withField("name", `Acme${ch}`), 400, "parameter_invalid", "name");
    });

    it.each([
      ["a lone high surrogate", "\\ud800"],
      ["a lone low surrogate", "\\udc00"],
      ["a reversed pair", "\\udc00\\ud800"],
    ])("a name with %s (raw JSON escape) is 400 param name and writes nothing", async (_, escaped) => {
      const before = await customerCount();
      const res = await rawCreate(
        `{"name":"Acme ${escaped}","tax_id":${JSON.stringify(validCustomer.tax_id)}}`,
      );
      expectError(res, 400, "parameter_invalid", "name");
      expect(await customerCount()).toBe(before);
    });

    it("a lone surrogate in a nested field names that field", async () => {
      const body = `{"name":"Acme","tax_id":{"country":"ES","type":"es_nif","value":"B1234\\udfff5674"}}`;
      expectError(await rawCreate(body), 400, "parameter_invalid", "tax_id.value");
    });

    it("a body that is not valid UTF-8 is 400 json_invalid and writes nothing", async () => {
      const before = await customerCount();
      const json = new TextEncoder().encode(JSON.stringify({ ...validCustomer, name: "Acme XX" }));
      const at = json.indexOf("X".charCodeAt(0));
      json.set([0xc3, 0x28], at); // an invalid two-byte sequence in the name
      const res = await exports.default.fetch("http://api.test/v1/customers", {
        method: "POST",
        headers: { authorization: `Bearer ${account.testKey}`, "content-type": "application/json" },
        body: json,
      });
      const text = await res.text();
      expectError(
        { status: res.status, body: JSON.parse(text), headers: res.headers, text },
        400,
        "json_invalid",
      );
      expect(await customerCount()).toBe(before);
    });

    it("accepted strings read back exactly as sent: a surrogate pair, U+2028, quotes, SQL", async () => {
      const name = `🚀 "Ñandú" \u2028 '); DROP TABLE customers; -- \\ %_`;
      const res = await api.post("/v1/customers", { ...validCustomer, name });
      expectStatus(res, 201);
      expect((await api.get(`/v1/customers/${res.body.id}`)).body.name).toBe(name);
    });

    it("an empty name is rejected", async () => {
      await expectCreateRejected({ ...validCustomer, name: "" }, 400, "parameter_invalid", "name");
    });
  });

  describe("maximum lengths: the maximum is accepted, one more is 400", () => {
    const email = (n: number) => `${"a".repeat(64)}@${"b".repeat(n - 64 - 1 - 4)}.com`;
    it.each([
      ["name", 256, (n: number) => "n".repeat(n)],
      ["email", 254, email],
      ["phone", 32, (n: number) => "6".repeat(n)],
      ["address.line_1", 200, (n: number) => "l".repeat(n)],
      ["address.line_2", 200, (n: number) => "l".repeat(n)],
      ["address.city", 200, (n: number) => "c".repeat(n)],
      ["address.state", 200, (n: number) => "s".repeat(n)],
      ["address.postal_code", 20, (n: number) => "9".repeat(n)],
    ])("%s: %i characters", async (field, max, make) => {
      const ok = await api.post("/v1/customers", withField(field, make(max)));
      expectStatus(ok, 201);
      const [top, sub] = field.split(".") as [string, string?];
      const customer = ok.body as Record<string, any>;
      expect(sub ? customer[top][sub] : customer[top]).toBe(make(max));
      await expectCreateRejected(withField(field, make(max + 1)), 400, "parameter_invalid", field);
    });

    it("tax_id.value: 32 characters", async () => {
      const ok = await api.post("/v1/customers", {
        ...validCustomer,
        tax_id: { country: "US", type: "local", value: "A".repeat(32) },
      });
      expectStatus(ok, 201);
      expect(ok.body.tax_id.value).toBe("A".repeat(32));
      const tooLong = { ...validCustomer, tax_id: { country: "US", type: "local", value: "A".repeat(33) } };
      await expectCreateRejected(tooLong, 400, "parameter_invalid", "tax_id.value");
    });

    it("the maximum lengths hold on update too", async () => {
      const path = `/v1/customers/${(await createCustomer(api)).id}`;
      expectStatus(await api.patch(path, { name: "n".repeat(256), phone: "6".repeat(32) }), 200);
      expectError(await api.patch(path, { name: "n".repeat(257) }), 400, "parameter_invalid", "name");
      expectError(await api.patch(path, { phone: "6".repeat(33) }), 400, "parameter_invalid", "phone");
      expectError(await api.patch(path, { email: email(255) }), 400, "parameter_invalid", "email");
    });
  });

  describe("email", () => {
    it.each(["billing@acme.example", "a.b+tag@sub.acme.example", "x@y.co", "ñandú@acme.example"])(
      "%s is accepted as sent",
      async (value) => {
        const res = await api.post("/v1/customers", { ...validCustomer, email: value });
        expectStatus(res, 201);
        expect(res.body.email).toBe(value);
      },
    );

    it.each([
      "plain",
      "a@b",
      "a@@b.example",
      "a b@acme.example",
      "@acme.example",
      "a@",
      "a@.example",
      "a@acme..example",
      "a@acme.example.",
      " a@acme.example",
      "a@acme.example ",
      "",
    ])("%j is 400 param email", async (value) => {
      await expectCreateRejected({ ...validCustomer, email: value }, 400, "parameter_invalid", "email");
    });
  });

  describe("country codes are validated and uppercased everywhere", () => {
    it("address.country and tax_id.country are uppercased", async () => {
      const res = await api.post("/v1/customers", {
        ...validCustomer,
        tax_id: { country: "es", type: "es_nif", value: "B12345674" },
        address: { ...validAddress, country: "pt" },
      });
      expectStatus(res, 201);
      expect(res.body.address?.country).toBe("PT");
      expect(res.body.tax_id.country).toBe("ES");
    });

    it.each(["XX", "ESP", "EL", "UK", "E", "", "e5", 34])("address.country %j is 400", async (country) => {
      await expectCreateRejected(
        withField("address.country", country),
        400,
        "parameter_invalid",
        "address.country",
      );
    });

    it.each(["XX", "ESP", "EL", "UK", ""])("tax_id.country %j is 400", async (country) => {
      const body = { ...validCustomer, tax_id: { country, type: "local", value: "123" } };
      await expectCreateRejected(body, 400, "parameter_invalid", "tax_id.country");
    });
  });

  describe("ids sent to name an object (filters and references) are single-line text too", () => {
    const bad = "evt_\u0000x";
    const q = encodeURIComponent(bad);

    it.each([
      ["GET /v1/events?related_object=", `/v1/events?related_object=${q}`, "related_object"],
      ["GET /v1/invoices?customer=", `/v1/invoices?customer=${q}`, "customer"],
    ])("%s with a NUL is 400 with its param, not an empty list", async (_, path, param) => {
      expectError(await api.get(path), 400, "parameter_invalid", param);
    });

    it("an attempts filter and a resend naming an event with a control character are 400 event, and write nothing", async () => {
      const dest = await createDestination(api);
      expectError(
        await api.get(`/v1/event-destinations/${dest.id}/attempts?event=${q}`),
        400,
        "parameter_invalid",
        "event",
      );
      const before = await dbSnapshot();
      expectError(
        await api.post(`/v1/event-destinations/${dest.id}/resend`, { event: "evt_\tx" }),
        400,
        "parameter_invalid",
        "event",
      );
      expect(await dbSnapshot()).toBe(before);
    });

    it("an invoice's customer, payment option and corrected invoice, and the account's default instructions, with a control character are 400 on their param, and write nothing", async () => {
      const { api: es } = await esIssuer();
      const line = {
        description: "Work",
        quantity: "1",
        unit_price: "10",
        taxes: [{ tax: "iva", rule: "general" }],
      };
      const before = await dbSnapshot();
      const cases: [unknown, string][] = [
        [{ customer: "cus_\u0001", lines: [line] }, "customer"],
        [
          { type: "simplified", lines: [line], payment_terms: { options: ["pmi_\n"] } },
          "payment_terms.options.0",
        ],
        [
          { type: "corrective", corrects: { invoice: "inv_\u007f", reason: "R5" }, lines: [line] },
          "corrects.invoice",
        ],
      ];
      for (const [body, param] of cases) {
        expectError(await es.post("/v1/invoices", body), 400, "parameter_invalid", param);
      }
      expectError(
        await es.patch("/v1/account", { default_payment_instructions: ["pmi_\u0085"] }),
        400,
        "parameter_invalid",
        "default_payment_instructions.0",
      );
      expect(await dbSnapshot()).toBe(before);
    });
  });
});
