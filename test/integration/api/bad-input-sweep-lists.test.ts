/**
 * The bad-input sweep (test/helpers/sweep.ts) over every list's query parameters. (Tax IDs
 * have no list: they are read one by one, `GET /v1/tax-ids/{id}`.)
 */
import { beforeAll, describe } from "vitest";
import { createAccount } from "../../helpers/factories";
import { sweepList } from "../../helpers/sweep";

describe("bad input sweep: list query parameters", () => {
  let key = "";
  beforeAll(async () => {
    key = (await createAccount({ taxRegime: "es" })).testKey;
  });
  const cursors = ["limit", "starting_after", "ending_before"] as const;
  sweepList("/v1/customers", [...cursors, "q", "country"], () => key);
  sweepList("/v1/invoices", [...cursors, "customer", "type", "series"], () => key);
  sweepList("/v1/events", [...cursors, "type", "related_object"], () => key);
  sweepList("/v1/payment-instructions", cursors, () => key);
  sweepList("/v1/event-destinations", cursors, () => key);
  sweepList("/v1/balance-transactions", [...cursors, "type"], () => key);
});
