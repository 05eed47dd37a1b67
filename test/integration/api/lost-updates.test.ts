/**
 * Lost updates: a PATCH writes only what it names, so two concurrent PATCHes of different
 * fields both survive, and the response and the `*.updated` event show the row as written
 * (the other request's change included). "Interleaved" tests force the race: both requests
 * read the row before either writes (a gate on the D1 binding holds the writes).
 */

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../../src/index";
import { afterResponses } from "../../helpers/after-response";
import { type ApiClient, type ApiResponse, client, expectStatus } from "../../helpers/api";
import { beforeBatches } from "../../helpers/db";
import {
  createAccount,
  createCustomer,
  createDestination,
  createInstruction,
  fullAddress,
  type TestAccount,
} from "../../helpers/factories";
import type { Customer, Event, List, PaymentInstruction } from "../../helpers/types";

const ROUNDS = 20;

/**
 * The D1 binding with a gate on the writes of `table`: each UPDATE batch waits until `parties`
 * of them have arrived, so every request has read the row before any writes it; `meanwhile`
 * runs then, before the writes are let through.
 */
function gatedDb(table: string, parties: number, meanwhile: () => Promise<unknown>) {
  let arrived = 0;
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { forced: false };
  // Requests run in D1 sessions (src/db/session.ts): the gate wraps the sessions too.
  const gated = <T extends object>(inner: T): T =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === "batch") {
          return async (statements: D1PreparedStatement[]) => {
            const sql = statements.map((s) => (s as unknown as { statement: string }).statement).join(";");
            // An UPDATE, or an upsert's `on conflict … do update` (the account's profile row).
            if (new RegExp(`(update|insert into) "${table}"`, "i").test(sql)) {
              arrived += 1;
              if (arrived === parties) {
                state.forced = true;
                await meanwhile();
                open();
              }
              // A request that never reaches its write must not hang the test.
              await Promise.race([gate, new Promise((r) => setTimeout(r, 2000))]);
            }
            return (target as unknown as D1Database).batch(statements);
          };
        }
        if (prop === "withSession") {
          return (constraint?: string) => gated((target as unknown as D1Database).withSession(constraint));
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const db = gated(env.DB);
  return { db, state };
}

/** Sends PATCHes concurrently through the Worker with the gated D1; all must read before any writes. */
async function interleaved<T>(
  table: string,
  key: string,
  requests: [string, unknown][],
  meanwhile: () => Promise<unknown> = async () => {},
) {
  const { db, state } = gatedDb(table, requests.length, meanwhile);
  const ctx = createExecutionContext();
  const responses = await Promise.all(
    requests.map(async ([path, body]) => {
      const res = await worker.fetch(
        new Request(`http://api.test${path}`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { ...env, DB: db },
        ctx,
      );
      const text = await res.text();
      return {
        status: res.status,
        body: JSON.parse(text) as T,
        headers: res.headers,
        text,
      } as ApiResponse<T>;
    }),
  );
  await waitOnExecutionContext(ctx);
  await afterResponses();
  expect(state.forced, "both requests read the row before either wrote it").toBe(true);
  return responses;
}

async function updatedEvents(api: ApiClient, type: string, id: string) {
  const res = await api.get(`/v1/events?type=${type}&limit=100`);
  expectStatus(res, 200);
  return (res.body as List<Event>).data.filter((e) => e.related_object.id === id);
}

let account: TestAccount;
let api: ApiClient;
beforeAll(async () => {
  account = await createAccount();
  api = client(account.testKey);
});

describe("customers: a PATCH writes only the fields it names", () => {
  const path = (id: string) => `/v1/customers/${id}`;

  it("interleaved PATCHes of name and phone both survive", async () => {
    const customer = await createCustomer(api, { name: "Before", phone: "+34 600 000 000" });
    const [a, b] = await interleaved<Customer>("customers", account.testKey, [
      [path(customer.id), { name: "After" }],
      [path(customer.id), { phone: "+34 911 111 111" }],
    ]);
    expectStatus(a!, 200);
    expectStatus(b!, 200);
    const stored = (await api.get(path(customer.id))).body as Customer;
    expect(stored).toMatchObject({ name: "After", phone: "+34 911 111 111" });
  });

  it("interleaved PATCHes of email, tax_id and address all survive, and the last response is the row as written", async () => {
    const customer = await createCustomer(api, { address: fullAddress });
    const responses = await interleaved<Customer>("customers", account.testKey, [
      [path(customer.id), { email: "ap@acme.example" }],
      [path(customer.id), { tax_id: { country: "PT", type: "local", value: "PT-123" } }],
      [path(customer.id), { address: { city: "Sevilla", postal_code: "41001" } }],
    ]);
    for (const res of responses) expectStatus(res, 200);
    const stored = (await api.get(path(customer.id))).body as Customer;
    expect(stored.email).toBe("ap@acme.example");
    expect(stored.tax_id).toMatchObject({ country: "PT", type: "local", value: "PT123" });
    expect(stored.address).toEqual({ ...fullAddress, city: "Sevilla", postal_code: "41001" });
    // D1 runs one write at a time: the last one to commit saw the other two.
    expect(responses.map((r) => r.body)).toContainEqual(stored);
  });

  it("interleaved PATCHes of two fields of one address both survive (the address merges by field)", async () => {
    const customer = await createCustomer(api, { address: fullAddress });
    await interleaved<Customer>("customers", account.testKey, [
      [path(customer.id), { address: { city: "Bilbao" } }],
      [path(customer.id), { address: { line_2: null } }],
    ]);
    const stored = (await api.get(path(customer.id))).body as Customer;
    expect(stored.address).toEqual({ ...fullAddress, city: "Bilbao", line_2: null });
  });

  it("each customer.updated event shows the customer as that write left it, the other change included", async () => {
    const customer = await createCustomer(api, { name: "Before", email: "old@acme.example" });
    const responses = await interleaved<Customer>("customers", account.testKey, [
      [path(customer.id), { name: "After" }],
      [path(customer.id), { email: "new@acme.example" }],
    ]);
    const events = await updatedEvents(api, "customer.updated", customer.id);
    expect(events).toHaveLength(2);
    const snapshots = events.map((e) => e.data.object);
    // Each event equals the response of its request; the write that committed last (not
    // necessarily the newer event id) saw the other change, and is the stored customer.
    expect(snapshots).toEqual(expect.arrayContaining(responses.map((r) => r.body)));
    const stored = (await api.get(path(customer.id))).body as Customer;
    expect(stored).toMatchObject({ name: "After", email: "new@acme.example" });
    expect(snapshots).toContainEqual(stored);
  });

  it("a partial address racing an address clear never stores an incomplete address", async () => {
    const customer = await createCustomer(api, { address: fullAddress });
    await interleaved<Customer>("customers", account.testKey, [
      [path(customer.id), { address: null }],
      [path(customer.id), { address: { city: "Toledo" } }],
    ]);
    const stored = (await api.get(path(customer.id))).body as Customer;
    expect([null, { ...fullAddress, city: "Toledo" }]).toContainEqual(stored.address);
    const events = await updatedEvents(api, "customer.updated", customer.id);
    expect(events.map((e) => e.data.object)).toContainEqual(stored);
  });

  it("the country filter follows an address clear and a Tax ID replacement made concurrently", async () => {
    const customer = await createCustomer(api, { address: { ...fullAddress, country: "FR" } });
    await interleaved<Customer>("customers", account.testKey, [
      [path(customer.id), { address: null }],
      [path(customer.id), { tax_id: { country: "IT", type: "local", value: "IT1" } }],
    ]);
    const listed = await api.get("/v1/customers?country=IT");
    expectStatus(listed, 200);
    expect((listed.body as List<Customer>).data.map((c) => c.id)).toContain(customer.id);
    const inSpain = await api.get("/v1/customers?country=ES");
    expect((inSpain.body as List<Customer>).data.map((c) => c.id)).not.toContain(customer.id);
  });

  it("a Tax ID verification written while a PATCH runs is kept, and the event shows it", async () => {
    const customer = await createCustomer(api);
    const [res] = await interleaved<Customer>(
      "customers",
      account.testKey,
      [[path(customer.id), { email: "ap@acme.example" }]],
      () =>
        env.DB.prepare(
          "UPDATE customers SET tax_id_verification_status = 'completed', tax_id_verification_valid = 1, tax_id_verification_completed_at = ? WHERE id = ?",
        )
          .bind("2026-01-02T03:04:05.678Z", customer.id)
          .run(),
    );
    const verification = {
      status: "completed",
      valid: true,
      completed_at: "2026-01-02T03:04:05.678Z",
      verified_name: null,
      verified_address: null,
    };
    expectStatus(res!, 200);
    expect(res!.body.tax_id.verification).toEqual(verification);
    expect((await api.get(path(customer.id))).body).toEqual(res!.body);
    const [event] = await updatedEvents(api, "customer.updated", customer.id);
    expect(event?.data.object).toEqual(res!.body);
  });

  it("a customer deleted while a PATCH runs is a 404 and records no customer.updated event", async () => {
    const customer = await createCustomer(api);
    const [res] = await interleaved<Customer>(
      "customers",
      account.testKey,
      [[path(customer.id), { name: "Too late" }]],
      () => env.DB.prepare("DELETE FROM customers WHERE id = ?").bind(customer.id).run(),
    );
    expect(res!.status, res!.text).toBe(404);
    expect(await updatedEvents(api, "customer.updated", customer.id)).toEqual([]);
  });

  it("a customer deleted while a PATCH replaces its tax_id is a 404 and leaves no Tax ID behind", async () => {
    const customer = await createCustomer(api);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM tax_ids").first<number>("n");
    const [res] = await interleaved<Customer>(
      "customers",
      account.testKey,
      [[path(customer.id), { tax_id: { country: "ES", type: "eu_vat", value: "ESA58818501" } }]],
      () => env.DB.prepare("DELETE FROM customers WHERE id = ?").bind(customer.id).run(),
    );
    expect(res!.status, res!.text).toBe(404);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM tax_ids").first<number>("n")).toBe(before);
  });

  it(`concurrent PATCHes of name and email both survive, ${ROUNDS} rounds`, async () => {
    const customer = await createCustomer(api);
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = await Promise.all([
        api.patch(path(customer.id), { name: `Name ${i}` }),
        api.patch(path(customer.id), { email: `round${i}@acme.example` }),
      ]);
      expectStatus(a, 200);
      expectStatus(b, 200);
      const stored = (await api.get(path(customer.id))).body as Customer;
      expect(stored, `round ${i}`).toMatchObject({ name: `Name ${i}`, email: `round${i}@acme.example` });
    }
    await afterResponses();
  });
});

describe("the account: a PATCH of the issuer address merges by field", () => {
  it("interleaved PATCHes of two fields of the account's address both survive", async () => {
    const own = await createAccount();
    const ownApi = client(own.testKey);
    expectStatus(await ownApi.patch("/v1/account", { address: fullAddress }), 200);
    const [a, b] = await interleaved("account_environments", own.testKey, [
      ["/v1/account", { address: { city: "Sevilla" } }],
      ["/v1/account", { address: { postal_code: "41001" } }],
    ]);
    expectStatus(a!, 200);
    expectStatus(b!, 200);
    const stored = (await ownApi.get("/v1/account")).body as { address: Record<string, unknown> };
    expect(stored.address).toMatchObject({ ...fullAddress, city: "Sevilla", postal_code: "41001" });
  });
});

describe("event destinations: a PATCH answers with the destination as written", () => {
  it("a secret rotated between a PATCH's read and its write stays (the PATCH answers without the secret)", async () => {
    // An account of its own: a destination here would receive the other tests' events.
    const own = await createAccount();
    const dest = await createDestination(own.testKey);
    const rotated = `whsec_${"r".repeat(43)}`;
    const [res] = await interleaved<{ name: string; secret: string }>(
      "event_destinations",
      own.testKey,
      [[`/v1/event-destinations/${dest.id}`, { name: "Renamed" }]],
      () =>
        env.DB.prepare("UPDATE event_destinations SET secret = ? WHERE id = ?").bind(rotated, dest.id).run(),
    );
    expectStatus(res!, 200);
    expect(res!.body).toMatchObject({ name: "Renamed" });
    expect(res!.body).not.toHaveProperty("secret");
    const stored = await client(own.testKey).get(`/v1/event-destinations/${dest.id}`);
    expect(stored.body).toMatchObject({ name: "Renamed", secret: rotated });
  });
});

describe("payment instructions: a PATCH writes only the fields it names", () => {
  const path = (id: string) => `/v1/payment-instructions/${id}`;

  it("interleaved PATCHes of label, beneficiary and bic all survive", async () => {
    const instruction = await createInstruction(api);
    const responses = await interleaved<PaymentInstruction>("payment_instructions", account.testKey, [
      [path(instruction.id), { label: "Renamed" }],
      [path(instruction.id), { bank_transfer: { beneficiary: "Acme Holding SL" } }],
      [path(instruction.id), { bank_transfer: { bic: null } }],
    ]);
    for (const res of responses) expectStatus(res, 200);
    const stored = (await api.get(path(instruction.id))).body as PaymentInstruction;
    expect(stored).toMatchObject({
      label: "Renamed",
      bank_transfer: { beneficiary: "Acme Holding SL", iban: instruction.bank_transfer.iban, bic: null },
    });
    expect(responses.map((r) => r.body)).toContainEqual(stored);
  });

  it("each payment_instruction.updated event shows the instruction as that write left it", async () => {
    const instruction = await createInstruction(api);
    const responses = await interleaved<PaymentInstruction>("payment_instructions", account.testKey, [
      [path(instruction.id), { label: "Renamed" }],
      [path(instruction.id), { bank_transfer: { iban: "DE89 3704 0044 0532 0130 00" } }],
    ]);
    const events = await updatedEvents(api, "payment_instruction.updated", instruction.id);
    expect(events).toHaveLength(2);
    const snapshots = events.map((e) => e.data.object);
    expect(snapshots).toEqual(expect.arrayContaining(responses.map((r) => r.body)));
    const stored = (await api.get(path(instruction.id))).body as PaymentInstruction;
    expect(stored).toMatchObject({ label: "Renamed", bank_transfer: { iban: "DE89370400440532013000" } });
    expect(snapshots).toContainEqual(stored);
  });

  it(`concurrent PATCHes of label and iban both survive, ${ROUNDS} rounds`, async () => {
    const instruction = await createInstruction(api);
    const ibans = ["DE89370400440532013000", "ES9121000418450200051332"];
    for (let i = 0; i < ROUNDS; i++) {
      const iban = ibans[i % 2] as string;
      const [a, b] = await Promise.all([
        api.patch(path(instruction.id), { label: `Label ${i}` }),
        api.patch(path(instruction.id), { bank_transfer: { iban } }),
      ]);
      expectStatus(a, 200);
      expectStatus(b, 200);
      const stored = (await api.get(path(instruction.id))).body as PaymentInstruction;
      expect(stored, `round ${i}`).toMatchObject({ label: `Label ${i}`, bank_transfer: { iban } });
    }
    await afterResponses();
  });
});

describe("a delete's event shows the object as the delete found it", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ["customers", "customer.deleted", "name"],
    ["payment_instructions", "payment_instruction.deleted", "label"],
  ] as const)("a change to %s committed while its DELETE runs shows in %s", async (table, type, column) => {
    const own = await createAccount();
    const ownApi = client(own.testKey);
    const object =
      table === "customers"
        ? await createCustomer(ownApi, { name: "Before" })
        : await createInstruction(ownApi, { label: "Before" });
    // The PATCH's commit lands between the DELETE's read (its first batch) and its write.
    beforeBatches(async (_, n) => {
      if (n !== 2) return;
      await env.DB.prepare(`UPDATE ${table} SET ${column} = 'Changed meanwhile' WHERE id = ?`)
        .bind(object.id)
        .run();
    });
    const path = table === "customers" ? "/v1/customers" : "/v1/payment-instructions";
    const res = await ownApi.del(`${path}/${object.id}`);
    vi.restoreAllMocks();
    expectStatus(res, 204);
    const events = await updatedEvents(ownApi, type, object.id);
    expect(events.map((e) => (e.data.object as Record<string, unknown>)[column])).toEqual([
      "Changed meanwhile",
    ]);
  });
});
