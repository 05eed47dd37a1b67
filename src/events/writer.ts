import type { Context } from "hono";
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
