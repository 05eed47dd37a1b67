/**
 * What every queue message says of its shard, stamped by `shardEnv`'s producers. Absent on
 * messages queued before shards: those belong to the first shard.
 */
export type ShardStamp = { shard?: string };
