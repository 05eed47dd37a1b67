import { and, count, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Caller } from "../contracts/caller";
import type { Database } from "../db/client";
import { isNotNullViolation } from "../db/errors";
import { accounts, type EventDestinationRow, eventDestinations } from "../db/schema";
import type { Writer } from "../events/write";
import { ApiError } from "../http/errors";
import { fencedWrite } from "../http/idempotency";
import { nowIso } from "../lib/clock";
import { newId } from "../lib/ids";
import { MAX_DESTINATIONS } from "../webhooks/config";
import { generateSecret } from "../webhooks/signature";
import { destinationUrl } from "./find";
import type { CreateDestinationBody, DestinationWithSecret } from "./schemas";
import { serializeDestinationWithSecret } from "./serialize";

const COLUMNS = getTableColumns(eventDestinations);

/**
 * `INSERT … SELECT` of `row` whose `account_id` is NULL when its account and environment
 * already hold `MAX_DESTINATIONS` destinations, enabled or not: the NOT NULL constraint then
 * fails the request's whole batch, so a refused create writes nothing (not its
 * `Idempotency-Key` mark, not its write budget's count). The count runs inside the INSERT,
 * and D1 runs one write at a time, so concurrent creates cannot pass the limit together.
 */
function insertWithinLimit(db: Database, row: EventDestinationRow) {
  const d = eventDestinations;
  const fields = {} as Record<keyof EventDestinationRow, SQL.Aliased>;
  for (const [key, value] of Object.entries(row)) {
    const column = COLUMNS[key as keyof EventDestinationRow];
    fields[key as keyof EventDestinationRow] = sql`${column.mapToDriverValue(value)}`.as(column.name);
  }
  const held = db
    .select({ n: count() })
    .from(d)
    .where(and(eq(d.accountId, row.accountId), eq(d.live, row.live)));
  fields.accountId = sql`CASE WHEN (${held}) < ${MAX_DESTINATIONS} THEN ${row.accountId} END`.as(
    "account_id",
  );
  return db.insert(d).select(db.select(fields).from(accounts).where(eq(accounts.id, row.accountId)));
}

/** 201 with the signing secret. The key's environment is the destination's. */
export async function createDestination(
  w: Writer,
  caller: Caller,
  body: CreateDestinationBody,
): Promise<DestinationWithSecret> {
  const { db } = w;
  const now = nowIso();
  const row: EventDestinationRow = {
    id: newId("eventDestination"),
    accountId: caller.accountId,
    live: caller.live,
    name: body.name,
    url: destinationUrl(w.env, body.url, caller.live),
    enabledEvents: body.enabled_events,
    status: "enabled",
    disabledReason: null,
    secret: generateSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    circuitUntil: null,
    leaseUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  await fencedWrite(w, { inserted: insertWithinLimit(db, row) }).catch((err) => {
    if (!isNotNullViolation(err, "event_destinations.account_id")) throw err;
    throw new ApiError(
      "destination_limit_reached",
      `An account holds at most ${MAX_DESTINATIONS} event destinations per environment, enabled or disabled; delete one to add another.`,
    );
  });
  return serializeDestinationWithSecret(row);
}
