import type { Context } from "hono";
import { config } from "../config";
import type { Database } from "../db/client";
import type { AppEnv } from "../http/context";
import { connectionSlots, type Slots } from "../lib/connections";
import type { Scope, Writer } from "./write";

/**
 * The request's writer: its database, its caller's scope, its `waitUntil`, its `Idempotency-Key`
 * mark, and the request's outbound connection slots (one set per request, however many writers).
 */
export function writerOf(c: Context<AppEnv>): Writer {
  let slots = c.get("slots");
  if (!slots) {
    slots = connectionSlots();
    c.set("slots", slots);
  }
  return {
    db: c.get("db"),
    env: c.env,
    scope: c.get("caller"),
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    slots,
    idempotencyMark: c.get("idempotencyMark"),
    // A GET's write (a PDF rendered on first read) is the system's, like a consumer's: reads go
    // on past the budget, and only what a caller asks to write counts.
    budget:
      c.req.method === "GET" ? undefined : config(c.env).writeBudget[c.get("caller").live ? "live" : "test"],
  };
}

/**
 * A queue consumer's writer for one account and environment: its fan-out outlives the handler
 * through `ctx`, and takes the batch's connection `slots` (the batch is one invocation).
 */
export function consumerWriter(
  db: Database,
  env: Env,
  ctx: ExecutionContext,
  scope: Scope,
  slots: Slots,
): Writer {
  return {
    db,
    env,
    scope: { accountId: scope.accountId, live: scope.live },
    waitUntil: (p) => ctx.waitUntil(p),
    slots,
  };
}
