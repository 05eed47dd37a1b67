import type { Context } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "../env";
import type { Scope, Writer } from "./write";

/** The request's writer: its database, its caller's scope, its `waitUntil`, its `Idempotency-Key` mark. */
export function writerOf(c: Context<AppEnv>): Writer {
  return {
    db: c.get("db"),
    env: c.env,
    scope: c.get("caller"),
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    idempotencyMark: c.get("idempotencyMark"),
  };
}

/** A queue consumer's writer for one account and environment: its fan-out outlives the handler through `ctx`. */
export function consumerWriter(db: Database, env: Env, ctx: ExecutionContext, scope: Scope): Writer {
  return {
    db,
    env,
    scope: { accountId: scope.accountId, live: scope.live },
    waitUntil: (p) => ctx.waitUntil(p),
  };
}
