import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { newId } from "../lib/ids";

/** Gives every request an id, returned as `Request-Id` on every response. */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = newId("request");
  c.set("requestId", id);
  await next();
  c.res.headers.set("Request-Id", id);
};
