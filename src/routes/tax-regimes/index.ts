import { cors } from "hono/cors";
import { notFound } from "../../lib/errors";
import { newRouter } from "../../lib/router";
import { isTaxRegimeId } from "../../tax/catalog";
import { CATALOG_KEYS } from "../../tax/documents";
import { serveCatalog } from "./serve";

/**
 * The public catalog: no API key (a bad `Authorization` header is ignored), readable from
 * any browser origin.
 */
export const taxRegimes = newRouter()
  .use(
    cors({
      origin: "*",
      allowMethods: ["GET", "HEAD", "OPTIONS"],
      allowHeaders: ["If-None-Match", "Authorization"],
      exposeHeaders: ["ETag", "Request-Id"],
      maxAge: 86_400,
    }),
  )
  .get("/", (c) => serveCatalog(c, CATALOG_KEYS.list))
  .get("/:id", (c) => {
    const id = c.req.param("id");
    if (!isTaxRegimeId(id)) throw notFound("tax regime", id);
    return serveCatalog(c, CATALOG_KEYS.regime(id));
  });
