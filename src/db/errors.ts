/**
 * True when `err` (or an error it wraps, as Drizzle does) is SQLite's unique-constraint
 * failure on a column whose name contains `column`.
 */
export function isUniqueViolation(err: unknown, column: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const m = /UNIQUE constraint failed: ([^:]+?)(?::|$)/.exec(e.message);
    if (m?.[1]?.includes(column)) return true;
  }
  return false;
}

/** True when `err` (or an error it wraps) is SQLite's foreign-key failure. */
export function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes("FOREIGN KEY constraint failed")) return true;
  }
  return false;
}

/** True when `err` (or an error it wraps) carries `text`: the message of a trigger's RAISE(ABORT, …). */
export function isRaised(err: unknown, text: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes(text)) return true;
  }
  return false;
}

/** True when `err` (or an error it wraps) is SQLite's NOT NULL failure on `column` (`table.column`). */
export function isNotNullViolation(err: unknown, column: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes(`NOT NULL constraint failed: ${column}`)) return true;
  }
  return false;
}
