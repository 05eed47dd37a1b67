import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { DeliveryMessage } from "../contracts/delivery-message";
import { createDb } from "../db/client";
import { eventDestinations, webhookDeadLetters } from "../db/schema";
import { isId } from "../lib/ids";

/** Dead letters queued per statement: deleted by rowid, under D1's 100 bound parameters. */
const CHUNK = 90;
/** At most 900 a minute: a large re-drive spreads over several cron runs. */
const CHUNKS_PER_RUN = 10;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Which dead letters to re-drive: those of an event, of a destination, both, or all. */
export type RedriveFilter = { event?: string; destination?: string; all?: boolean };

/**
 * The SQL `npm run webhooks:redrive` runs through `wrangler d1 execute` (a script reaches
 * D1 but not the queue): it marks the matching dead letters, which the next cron run queues
 * afresh. Ids are checked against their format, so nothing but an id reaches the SQL.
 *
 * @example
 * redriveStatement({ destination: "ed_01JD…" }, new Date().toISOString())
 * // "UPDATE webhook_dead_letters SET redrive_requested_at = '…' WHERE destination_id = 'ed_01JD…' RETURNING …"
 */
export function redriveStatement(filter: RedriveFilter, now: string): string {
  if (filter.event !== undefined && !isId("event", filter.event)) {
    throw new Error("--event must be an event id (evt_…).");
  }
  if (filter.destination !== undefined && !isId("eventDestination", filter.destination)) {
    throw new Error("--destination must be an event destination id (ed_…).");
  }
  if (!ISO.test(now)) throw new Error("now must be an ISO 8601 UTC timestamp with milliseconds.");
  const where = [
    filter.event && `event_id = '${filter.event}'`,
    filter.destination && `destination_id = '${filter.destination}'`,
  ].filter(Boolean);
  if (where.length === 0 && !filter.all) {
    throw new Error("Pass --event evt_…, --destination ed_… (or both), or --all.");
  }
  const condition = where.length ? where.join(" AND ") : "1 = 1";
  return `UPDATE webhook_dead_letters SET redrive_requested_at = '${now}' WHERE ${condition} RETURNING event_id, destination_id;`;
}

/**
 * The cron's share: queues every dead letter marked for a re-drive as attempt 1 of a new
 * delivery (five fresh attempts), then deletes it. A dead letter of a disabled destination
 * waits until the destination is enabled again. At least once: if the delete fails after
 * the send, the next run sends it again (receivers dedupe by event id).
 */
export async function redriveRequested(env: Env): Promise<number> {
  const db = createDb(env.DB);
  const l = webhookDeadLetters;
  const d = eventDestinations;
  let queued = 0;
  for (let i = 0; i < CHUNKS_PER_RUN; i++) {
    const rows = await db
      .select({ rowid: sql<number>`${l}.rowid`, eventId: l.eventId, destinationId: l.destinationId })
      .from(l)
      .innerJoin(d, and(eq(d.id, l.destinationId), eq(d.status, "enabled")))
      .where(isNotNull(l.redriveRequestedAt))
      .limit(CHUNK);
    if (rows.length === 0) break;
    const messages: { body: DeliveryMessage }[] = rows.map((r) => ({
      body: { event_id: r.eventId, destination_id: r.destinationId, attempt: 1 },
    }));
    await env.WEBHOOKS.sendBatch(messages);
    // Still marked: a delivery that died again meanwhile was reset by its new dead letter.
    await db.delete(l).where(
      and(
        inArray(
          sql`rowid`,
          rows.map((r) => r.rowid),
        ),
        isNotNull(l.redriveRequestedAt),
      ),
    );
    queued += rows.length;
    if (rows.length < CHUNK) break;
  }
  return queued;
}
