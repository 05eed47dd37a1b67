import { Hono } from "hono";
import type { AppEnv } from "../env";

export type Router = Hono<AppEnv>;

/** Every resource router comes from here, so they all share the app's env and error shape. */
export function newRouter(): Router {
  return new Hono<AppEnv>();
}
