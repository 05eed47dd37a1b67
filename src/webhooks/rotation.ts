import { sql } from "drizzle-orm";
import { type EventDestinationRow, eventDestinations } from "../db/schema";
import { nowMs } from "../lib/clock";
import { generateSecret } from "./signature";

/** How long the previous secret keeps signing after a rotation, unless the caller says (24 h). */
export const DEFAULT_OVERLAP_SECONDS = 86_400;
/** The longest overlap a caller may ask for (7 days). */
export const MAX_OVERLAP_SECONDS = 604_800;

/**
 * The columns a rotation sets, for one UPDATE: a new secret, and the current one kept as the
 * previous secret for `overlapSeconds` (0: it stops signing at once). As Stripe, at most one
 * previous secret: rotating during an overlap drops the older one at once. The current secret
 * is read by the UPDATE itself, so two concurrent rotations chain instead of losing one.
 */
export function rotation(overlapSeconds: number) {
  const keep = overlapSeconds > 0;
  return {
    secret: generateSecret(),
    previousSecret: keep ? sql`${eventDestinations.secret}` : null,
    previousSecretExpiresAt: keep ? new Date(nowMs() + overlapSeconds * 1000).toISOString() : null,
  };
}

/** The secrets a delivery is signed with at `now`: the current one, then the previous one while valid. */
export function signingSecrets(destination: EventDestinationRow, now: string): string[] {
  const { secret, previousSecret: previous, previousSecretExpiresAt: expiresAt } = destination;
  return previous !== null && expiresAt !== null && expiresAt > now ? [secret, previous] : [secret];
}
