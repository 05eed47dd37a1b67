/**
 * VERI*FACTU submission as the tests drive it. In the tests the VERIFACTU_SUBMISSIONS producer
 * leads to a queue without a consumer (vitest.config.ts): a test runs the worker's consumer on a
 * message for the chain it cares about, so no other test's chain moves behind its back.
 */
import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { VERIFACTU_QUEUE } from "../../src/contracts/submission-message";
import type { ChainRecord } from "../../src/contracts/verifactu-record";
import { perShard } from "../../src/db/shards";
import { recordRegistryFor } from "../../src/verifactu";
import { handleSubmissions, type RecordRegistryFor } from "../../src/verifactu/consumer";
import type { Issuer, RecordRegistry, SubmissionAnswer } from "../../src/verifactu/registry";
import { sandboxRecordRegistry } from "../../src/verifactu/sandbox";
import { client } from "./api";
import { createAccount } from "./factories";
import { esProfile, setProfile } from "./invoices";

/** One account environment's chain; `shard` as its account's (DB when left out). */
export type Chain = { accountId: string; live: boolean; shard?: string };

/** A fresh `es` account whose Test environment has an issuer profile, and that environment's chain. */
export async function esAccount(profile: Record<string, unknown> = esProfile) {
  const account = await createAccount();
  const api = client(account.testKey);
  await setProfile(api, profile);
  const chain: Chain = { accountId: account.id, live: false };
  return { account, api, chain };
}

/**
 * One consumer turn on `chain`, as the queue would deliver its message; waits for the event
 * fan-out. `bindings` are the background Worker's (a deployment's AEAT_CERT added, say).
 */
export async function runSubmissions(
  chain: Chain,
  registryFor: RecordRegistryFor = recordRegistryFor,
  bindings: Env = env,
) {
  const batch = createMessageBatch(VERIFACTU_QUEUE, [
    {
      id: crypto.randomUUID(),
      timestamp: new Date(),
      attempts: 1,
      body: { account_id: chain.accountId, live: chain.live, shard: chain.shard },
    },
  ]);
  const ctx = createExecutionContext();
  // Split by shard as the background Worker does (src/jobs.ts).
  await perShard(batch, bindings, (own, shardEnv) => handleSubmissions(own, shardEnv, ctx, registryFor));
  await waitOnExecutionContext(ctx);
}

/** A registry that records each request and answers as `answer` says (the sandbox by default). */
export function recordingRegistry(
  answer: (issuer: Issuer, records: readonly ChainRecord[], attempt?: number) => Promise<SubmissionAnswer> = (
    i,
    r,
    a,
  ) => sandboxRecordRegistry.submit(i, r, a),
) {
  const requests: { issuer: Issuer; records: ChainRecord[] }[] = [];
  const registry: RecordRegistry = {
    name: "aeat",
    async submit(issuer, records, attempt) {
      requests.push({ issuer, records: [...records] });
      return answer(issuer, records, attempt);
    },
  };
  return { requests, registryFor: (() => registry) as RecordRegistryFor };
}
