/**
 * Test data, defined once for every test file: rows inserted straight into D1 through the
 * Drizzle schema (accounts and keys, volume data, events), request bodies the API accepts,
 * and objects created through the API. Every test makes its own data: no shared seeded ids.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { EventType, TaxRegimeId } from "../../src/constants";
import * as schema from "../../src/db/schema";
import { nowIso, nowMs } from "../../src/lib/clock";
import { sha256Hex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { afterResponses } from "./after-response";
import { type ApiClient, client, expectStatus } from "./api";
import type {
  Customer,
  CustomerInput,
  DestinationInput,
  DestinationWithSecret,
  InstructionInput,
  PaymentInstruction,
} from "./types";

const db = drizzle(env.DB, { schema });
/** Keys and account places (src/db/shards.ts): a database of its own in the suite. */
const directory = drizzle(env.DIRECTORY, { schema });

// ---------------------------------------------------------------------------------------
// Rows straight into D1

/** D1 binds at most 100 parameters per statement, so rows go in as many to a statement as fit. */
const MAX_BOUND_PARAMETERS = 100;
/** Statements sent in one D1 round trip. */
const STATEMENTS_PER_BATCH = 50;

async function insertRows<T extends SQLiteTable>(
  table: T,
  rows: T["$inferInsert"][],
  into: typeof db = db,
): Promise<void> {
  const first = rows[0];
  if (!first) return;
  // Every given column is one bound parameter; the ones left out are written as literal nulls.
  const rowsPerStatement = Math.floor(MAX_BOUND_PARAMETERS / Object.keys(first).length);
  const statements = [];
  for (let i = 0; i < rows.length; i += rowsPerStatement) {
    statements.push(into.insert(table).values(rows.slice(i, i + rowsPerStatement)));
  }
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    const [head, ...rest] = statements.slice(i, i + STATEMENTS_PER_BATCH);
    if (head) await into.batch([head, ...rest]);
  }
}

/** An account and its two secret keys, as a client would hold them. */
export type TestAccount = { id: string; testKey: string; liveKey: string };

/**
 * A fresh account with one test and one live API key, stored as SHA-256 like real keys: the
 * account on its shard (`DB` unless given), its place and keys in the directory.
 *
 * @example
 * const account = await createAccount({ taxRegime: "global" });
 * const api = client(account.testKey);
 * const elsewhere = await createAccount({ shard: "DB_2" });
 */
export async function createAccount(
  options: { taxRegime?: TaxRegimeId; name?: string; shard?: "DB" | "DB_2" } = {},
): Promise<TestAccount> {
  const id = newId("account");
  const now = nowIso();
  const testKey = newApiKey("test");
  const liveKey = newApiKey("live");
  const shard = options.shard ?? "DB";
  const taxRegime = options.taxRegime ?? "es";
  await drizzle(env[shard], { schema })
    .insert(schema.accounts)
    .values({ id, name: options.name ?? "Test account", taxRegime, createdAt: now, updatedAt: now });
  await directory.batch([
    directory.insert(schema.directoryAccounts).values({ accountId: id, shard, taxRegime, createdAt: now }),
    directory.insert(schema.apiKeys).values([await apiKeyRow(id, testKey), await apiKeyRow(id, liveKey)]),
  ]);
  return { id, testKey, liveKey };
}

/**
 * A well-formed secret key of `environment` that belongs to nobody (until `insertApiKey`).
 *
 * @example
 * expect((await client(newApiKey("test")).get("/v1/account")).status).toBe(401);
 */
export function newApiKey(environment: "test" | "live"): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `sk_${environment}_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function apiKeyRow(accountId: string, key: string): Promise<typeof schema.apiKeys.$inferInsert> {
  return {
    id: newId("apiKey"),
    accountId,
    live: key.startsWith("sk_live_"),
    keyHash: await sha256Hex(key),
    keyHint: key.slice(-4),
    createdAt: nowIso(),
  };
}

/**
 * Gives the account `key` (test or live by its prefix), created now by the app's clock.
 *
 * @example
 * await insertApiKey(account.id, newApiKey("test"));
 */
export async function insertApiKey(accountId: string, key: string): Promise<void> {
  await directory.insert(schema.apiKeys).values(await apiKeyRow(accountId, key));
}

/**
 * Revokes `key` as of now by the app's clock.
 *
 * @example
 * await revokeApiKey(account.testKey);
 */
export async function revokeApiKey(key: string): Promise<void> {
  await directory
    .update(schema.apiKeys)
    .set({ revokedAt: nowIso() })
    .where(eq(schema.apiKeys.keyHash, await sha256Hex(key)));
}

/**
 * Inserts `count` customers straight into D1, bypassing the API, for volume tests. Customer
 * `i` is named `Customer i`, has the local Tax ID `LOCAL<i>` and lives in `country(i)` (ES
 * unless given). Returns their ids, oldest first.
 *
 * @example
 * const ids = await insertCustomers(account.id, 5_000, { country: (i) => (i % 10 ? "ES" : "PT") });
 */
export async function insertCustomers(
  accountId: string,
  count: number,
  options: { live?: boolean; country?: (i: number) => string; name?: (i: number) => string } = {},
): Promise<string[]> {
  const now = nowIso();
  const rows = Array.from({ length: count }, (_, i) => {
    const country = options.country?.(i) ?? "ES";
    return {
      id: newId("customer"),
      accountId,
      live: options.live ?? false,
      name: options.name?.(i) ?? `Customer ${i}`,
      invoicePrefix: `P${i.toString(36).toUpperCase().padStart(5, "0")}`,
      taxIdId: newId("taxId"),
      taxIdCountry: country,
      taxIdType: "local" as const,
      taxIdValue: `LOCAL${i}`,
      taxIdCreatedAt: now,
      filterCountry: country,
      createdAt: now,
      updatedAt: now,
    };
  });
  await insertRows(schema.customers, rows);
  return rows.map((row) => row.id);
}

export type EventOptions = {
  live?: boolean;
  type?: EventType;
  /** How old the event is by the app's clock. */
  ageMs?: number;
  /** When its dispatch ran; `null` for a write whose dispatch never ran. Default: at creation. */
  dispatchedAt?: string | null;
  /** The shard of the account (DB unless given). */
  shard?: "DB" | "DB_2";
};

/**
 * Inserts `count` events straight into D1, each about a customer of its own. By default they
 * are already dispatched, so nothing goes on the real queue. Returns their ids, oldest first.
 *
 * @example
 * const backlog = await insertEvents(account.id, 250, { ageMs: 5 * MINUTE, dispatchedAt: null });
 */
export async function insertEvents(
  accountId: string,
  count: number,
  options: EventOptions = {},
): Promise<string[]> {
  const createdAt = new Date(nowMs() - (options.ageMs ?? 0)).toISOString();
  const rows = Array.from({ length: count }, () => {
    const id = newId("event");
    const customerId = newId("customer");
    return {
      id,
      accountId,
      live: options.live ?? false,
      type: options.type ?? "customer.created",
      data: JSON.stringify({ id: customerId, object: "customer" }),
      relatedObjectId: customerId,
      relatedObjectType: "customer",
      createdAt,
      dispatchedAt: options.dispatchedAt === undefined ? createdAt : options.dispatchedAt,
    };
  });
  await insertRows(schema.events, rows, drizzle(env[options.shard ?? "DB"], { schema }));
  return rows.map((row) => row.id);
}

/**
 * One event, as `insertEvents` makes them (customer.created unless `type` says otherwise).
 *
 * @example
 * const eventId = await insertEvent(account.id, { dispatchedAt: null });
 */
export async function insertEvent(accountId: string, options: EventOptions = {}): Promise<string> {
  const [id] = await insertEvents(accountId, 1, options);
  return id as string;
}

// ---------------------------------------------------------------------------------------
// Request bodies the API accepts: spread them and override the field under test.

/** The smallest valid customer: a Spanish company with its NIF. */
export const validCustomer = {
  name: "Acme Servicios SL",
  tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
} satisfies CustomerInput;

/** The smallest valid address: the required fields only. */
export const validAddress = {
  line_1: "Rua Augusta 5",
  city: "Lisboa",
  postal_code: "1100-048",
  country: "PT",
};

/** An address with every field set, written as the API returns it. */
export const fullAddress = {
  line_1: "Calle Mayor 1",
  line_2: "2º B",
  city: "Madrid",
  postal_code: "28013",
  state: "Madrid",
  country: "ES",
};

/** A Spanish bank transfer with its BIC. */
export const validInstruction = {
  label: "Main account",
  type: "bank_transfer",
  bank_transfer: { beneficiary: "Acme Servicios SL", iban: "ES9121000418450200051332", bic: "CAIXESBBXXX" },
} satisfies InstructionInput;

/** A public https receiver of the customer.created and customer.updated events. */
export const validDestination = {
  name: "Billing hooks",
  url: "https://hooks.example.com/in",
  enabled_events: ["customer.created", "customer.updated"],
} satisfies DestinationInput;

// ---------------------------------------------------------------------------------------
// Objects created through the API

/** Who sends a request: an API key, or a client made with one. */
export type Caller = string | ApiClient;

type CreatePath = "/v1/customers" | "/v1/payment-instructions" | "/v1/event-destinations";

async function created<P extends CreatePath>(caller: Caller, path: P, body: unknown) {
  const res = await (typeof caller === "string" ? client(caller) : caller).post(path, body);
  expectStatus(res, 201);
  return res.body;
}

/**
 * `created`, then waits for the write's background dispatch (its event's queueing after the
 * response), so that no event write races what the test does or reads next.
 */
async function createdAndSettled<P extends CreatePath>(caller: Caller, path: P, body: unknown) {
  const object = await created(caller, path, body);
  await afterResponses();
  return object;
}

/**
 * Creates `validCustomer` with `overrides` through the API (201 or the test fails), then
 * waits for the write's background dispatch to finish.
 *
 * @example
 * const customer = await createCustomer(account.testKey, { invoice_prefix: "ACME" });
 */
export function createCustomer(caller: Caller, overrides: Partial<CustomerInput> = {}): Promise<Customer> {
  return createdAndSettled(caller, "/v1/customers", { ...validCustomer, ...overrides });
}

/**
 * Creates `validInstruction` with `overrides` through the API (201 or the test fails), then
 * waits for the write's background dispatch to finish.
 *
 * @example
 * const { id } = await createInstruction(account.liveKey, { label: "Live bank" });
 */
export function createInstruction(
  caller: Caller,
  overrides: Partial<InstructionInput> = {},
): Promise<PaymentInstruction> {
  return createdAndSettled(caller, "/v1/payment-instructions", { ...validInstruction, ...overrides });
}

/**
 * Creates an event destination through the API: `validDestination`, but subscribed to every
 * event (`*`) and at a URL of its own, so that what each destination receives can be told
 * apart; `overrides` change any of it. It comes back with its signing secret.
 *
 * @example
 * const dest = await createDestination(api, { enabled_events: ["customer.created"] });
 */
export function createDestination(
  caller: Caller,
  overrides: Partial<DestinationInput> = {},
): Promise<DestinationWithSecret> {
  return created(caller, "/v1/event-destinations", {
    ...validDestination,
    url: `https://hooks.example.com/${crypto.randomUUID()}`,
    enabled_events: ["*"],
    ...overrides,
  });
}
