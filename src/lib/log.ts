/**
 * Log lines for Workers Logs, which keeps every line the Worker writes and indexes its JSON.
 *
 * A line says what happened (`event`) and carries fields that identify without telling:
 * ids, codes, counts, durations. Never a name, an email, a Tax ID, a search query, a body,
 * a webhook payload, a URL, or an error message: messages quote the data they failed on
 * (V8's JSON.parse error shows the start of its input, D1's type errors the bound value).
 * An error is logged as its class, the D1/SQLite codes in it, and where it was thrown.
 */

type Value = string | number | boolean | null;

/** A field's name says what kind of value it holds; only these kinds exist. */
export type LogFields = Partial<
  Record<`${string}_id` | `${string}_count` | `${string}_ms` | "code" | "status", Value>
>;

// Ids, codes and names of things in code: a string of any other shape is not logged.
const TOKEN = /^[\w.:-]{1,100}$/;
const REDACTED = "[redacted]";
const ERROR_CODE = /\b(?:D1|SQLITE)_[A-Z_]+\b/g;
const FRAME_LOCATION = /[^\s()]+:\d+:\d+/;
const MAX_FRAMES = 8;

function clean(fields: LogFields): Record<string, Value> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value = null]) => [
      key,
      typeof value === "string" && !TOKEN.test(value) ? REDACTED : value,
    ]),
  );
}

/** What is safe to know of an error: its class, its codes, the file:line:column of its frames. */
function describeError(err: unknown): Record<string, Value | string[]> {
  if (!(err instanceof Error)) return { error: typeof err };
  const name = TOKEN.test(err.name) ? err.name : REDACTED;
  const codes = [...new Set(err.message.match(ERROR_CODE) ?? [])];
  const frames = (err.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .flatMap((line) => FRAME_LOCATION.exec(line) ?? []) // native frames have no location
    .slice(0, MAX_FRAMES);
  return { error: name, ...(codes.length > 0 && { error_codes: codes }), error_at: frames };
}

/**
 * Writes one info line. A string field that is not id-shaped is written as `[redacted]`.
 *
 * @example
 * log("sweep_done", { event_count: 12 });
 */
export function log(event: string, fields: LogFields = {}): void {
  console.log(JSON.stringify({ event, ...clean(fields) }));
}

/**
 * Writes one error line: `fields`, then the error's class, codes and frames (never its message).
 *
 * @example
 * logError("request_error", err, { request_id: c.get("requestId") });
 * // {"event":"request_error","request_id":"req_…","error":"SyntaxError","error_at":["index.js:1:2345",…]}
 */
export function logError(event: string, err: unknown, fields: LogFields = {}): void {
  console.error(JSON.stringify({ event, ...clean(fields), ...describeError(err) }));
}
