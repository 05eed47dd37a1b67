import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { Writer } from "./write";

/** The request's writer: its database, its caller's scope, its `waitUntil`. */
export function writerOf(c: Context<AppEnv>): Writer {
  return {
    db: c.get("db"),
    env: c.env,
    scope: c.get("caller"),
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
  };
}
