import { and, count, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { counted, type Database } from "../../db/client";
import { accounts, type EventDestinationRow, eventDestinations } from "../../db/schema";
import { nowIso } from "../../lib/clock";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import { route } from "../../http/route";
import { MAX_DESTINATIONS } from "../../webhooks/config";
import { generateSecret } from "../../webhooks/signature";
import { destinationUrl } from "../../event-destinations/find";
import { createDestinationBody, destinationObject } from "../../event-destinations/schemas";
import { serializeDestination } from "../../event-destinations/serialize";

const COLUMNS = getTableColumns(eventDestinations);

/**
 * `INSERT … SELECT` of `row` that inserts nothing when its account and environment already
 * hold `MAX_DESTINATIONS` destinations, enabled or not. The count runs inside the INSERT,
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
  return db
    .insert(d)
    .select(
      db
        .select(fields)
        .from(accounts)
        .where(and(eq(accounts.id, row.accountId), sql`(${held}) < ${MAX_DESTINATIONS}`)),
    )
    .returning({ id: d.id });
}

/** 201 with the signing secret. The key's environment is the destination's. */
export const createDestination = route({
  method: "post",
  path: "/v1/event-destinations",
  tag: "Event destinations",
  summary: "Create an event destination",
  request: { json: createDestinationBody },
  responses: { 201: { description: "The new destination, with its secret.", schema: destinationObject } },
  errors: ["destination_limit_reached"],
  handler: async (c, { json: body }) => {
    const caller = c.get("caller");
    const db = c.get("db");
    const now = nowIso();
    const row: EventDestinationRow = {
      id: newId("eventDestination"),
      accountId: caller.accountId,
      live: caller.live,
      name: body.name,
      url: destinationUrl(c.env, body.url),
      enabledEvents: body.enabled_events,
      status: "enabled",
      disabledReason: null,
      secret: generateSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await counted(db, insertWithinLimit(db, row));
    if (inserted.length === 0) {
      throw new ApiError(
        "destination_limit_reached",
        `An account holds at most ${MAX_DESTINATIONS} event destinations per environment, enabled or disabled; delete one to add another.`,
      );
    }
    return c.json(serializeDestination(row, { withSecret: true }), 201);
  },
});
