import type { MiddlewareHandler } from "hono";
import { newId } from "../lib/ids";
import type { AppEnv } from "./context";

/** Gives every request an id, returned as `Request-Id` on every response. */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = newId("request");
  c.set("requestId", id);
  await next();
  c.res.headers.set("Request-Id", id);
};
