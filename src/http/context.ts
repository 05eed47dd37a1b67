import type { BatchItem } from "drizzle-orm/batch";
import type { Caller } from "../contracts/caller";
import type { Database, DbUsage } from "../db/client";
import type { Slots } from "../lib/connections";
import type { ErrorCode } from "./errors";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    caller: Caller;
    db: Database;
    dbUsage: DbUsage;
    /** The parsed JSON body (`{}` when empty), set by the `jsonBody` middleware. */
    body: unknown;
    /** Set just before a route's handler runs: validation passed (what `Idempotency-Key` stores). */
    handlerStarted: boolean;
    /**
     * Set by `Idempotency-Key`: the statements that check the key is still this request's and
     * mark its write as made, which a request's write batch carries (`writerOf`), so a
     * committed write is never run twice.
     */
    idempotencyMark: BatchItem<"sqlite">[];
    /** The request's outbound connection slots, made by its first writer (`writerOf`). */
    slots: Slots;
    /** The code of the error response, set when one is built (what `Idempotency-Key` may store). */
    errorCode: ErrorCode;
  };
};
