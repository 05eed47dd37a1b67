/**
 * D1 read replication. Every request runs in one D1 session: a read (GET) may be served by a
 * nearby replica, unless the client sends back the `D1-Bookmark` of an earlier response, which
 * makes the session start at least as fresh as that response's writes; any other method
 * starts on the primary, so a write request never decides on a lagging read. A bookmark that is
 * not one (a typo, a truncated header) also starts on the primary: the freshest read, never an
 * error. Every response carries the session's latest bookmark, once the session has run a
 * query (a request refused before any has none). Without replicas (local development, the
 * tests) the same code runs against the one database.
 */
export const BOOKMARK_HEADER = "D1-Bookmark";

// D1's bookmarks: four hex fields (`00000000-00000014-00000000-<32 hex>`).
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The methods that only read: a replica may serve them, and a moving account still answers them. */
export const READS = new Set(["GET", "HEAD"]);

/**
 * The session a request runs in.
 *
 * @example
 * requestSession(env.DB, "GET", null); // withSession("first-unconstrained")
 * requestSession(env.DB, "GET", "00000000-00000014-00000000-0000…"); // withSession(that bookmark)
 * requestSession(env.DB, "POST", null); // withSession("first-primary")
 */
export function requestSession(db: D1Database, method: string, bookmark: string | null): D1DatabaseSession {
  if (!READS.has(method)) return db.withSession("first-primary");
  if (bookmark === null) return db.withSession("first-unconstrained");
  return db.withSession(BOOKMARK.test(bookmark) ? bookmark : "first-primary");
}
