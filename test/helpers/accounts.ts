import { env } from "cloudflare:workers";
import { sha256Hex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";

export type TestAccount = { id: string; testKey: string; liveKey: string };

function randomKeyBody(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/** A fresh account with one test and one live key: every test owns its data. */
export async function createAccount(
  options: { taxRegime?: "es" | "global"; name?: string } = {},
): Promise<TestAccount> {
  const id = newId("account");
  const now = new Date().toISOString();
  const testKey = `sk_test_${randomKeyBody()}`;
  const liveKey = `sk_live_${randomKeyBody()}`;
  const insertKey = async (key: string, live: boolean) =>
    env.DB.prepare(
      "INSERT INTO api_keys (id, account_id, live, key_hash, key_hint, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).bind(newId("apiKey"), id, live ? 1 : 0, await sha256Hex(key), key.slice(-4), now);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO accounts (id, name, tax_regime, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
    ).bind(id, options.name ?? "Test account", options.taxRegime ?? "es", now, now),
    await insertKey(testKey, false),
    await insertKey(liveKey, true),
  ]);
  return { id, testKey, liveKey };
}
