import { Hono } from "hono";
import { createDb } from "./db/client";
import type { AppEnv } from "./env";
import { auth } from "./lib/auth";
import { jsonBody } from "./lib/body";
import { ApiError, errorResponse, onError } from "./lib/errors";
import { requestId } from "./lib/request-id";
import { account } from "./routes/account";
import { benchRoutes } from "./routes/bench";
import { customers } from "./routes/customers";
import { eventDestinationsRouter } from "./routes/event-destinations";
import { eventsRouter } from "./routes/events";
import { paymentInstructions } from "./routes/payment-instructions";
import { taxRegimes } from "./routes/tax-regimes";

export const app = new Hono<AppEnv>();

app.use("*", requestId);

// A static route with no bindings: the floor that benchmarks compare every endpoint to.
app.get("/health", (c) => c.json({ status: "ok" }));

app.route("/__bench", benchRoutes);

// Public: mounted before the API-key middleware, which therefore never sees these routes.
app.route("/v1/tax-regimes", taxRegimes);

app.use("/v1/*", async (c, next) => {
  const usage = { rowsRead: 0, rowsWritten: 0 };
  c.set("dbUsage", usage);
  c.set("db", createDb(c.env.DB, usage));
  await next();
  // Local development and tests only: what this request cost in D1 rows.
  if (c.env.EXPOSE_DB_METRICS === "true") {
    c.res.headers.set("D1-Rows-Read", String(usage.rowsRead));
    c.res.headers.set("D1-Rows-Written", String(usage.rowsWritten));
  }
});

// Everything below needs an API key.
// Authentication first: a caller without a valid key learns nothing about the body rules.
app.use("/v1/*", auth, jsonBody);
app.route("/v1/customers", customers);
app.route("/v1/payment-instructions", paymentInstructions);
app.route("/v1/account", account);
app.route("/v1/events", eventsRouter);
app.route("/v1/event-destinations", eventDestinationsRouter);

app.notFound((c) =>
  errorResponse(
    c,
    new ApiError("resource_missing", `Unrecognized request URL (${c.req.method}: ${c.req.path}).`),
  ),
);
app.onError(onError);
