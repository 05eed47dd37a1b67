import type { TaxRegimeId } from "../constants";

/** Who is calling: set by the auth middleware on every authenticated route. */
export type Caller = {
  accountId: string;
  /** The key's environment: `sk_live_` keys see live data, `sk_test_` keys test data. */
  live: boolean;
  taxRegime: TaxRegimeId;
  /** The D1 binding (one of `SHARDS`) holding the account: src/db/shards.ts. */
  shard: string;
  /** The account is moving between shards: its writes are refused until the move is done. */
  moving: boolean;
};
