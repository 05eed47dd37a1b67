import { nowMs } from "./clock";

/** The one table of id prefixes. */
export const ID_PREFIX = {
  account: "acct",
  apiKey: "key",
  customer: "cus",
  taxId: "txi",
  paymentInstruction: "pmi",
  event: "evt",
  eventDestination: "ed",
  invoice: "inv",
  payment: "pay",
  balanceTransaction: "btx",
  deliveryAttempt: "dla",
  request: "req",
  verifactuRecord: "vfr",
} as const;

export type IdKind = keyof typeof ID_PREFIX;

// Crockford base32: sortable as ASCII, no I, L, O, U.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RANDOM_CHARS = 16; // 80 bits

let lastMs = -1;
let lastRandom: number[] = [];

function randomDigits(): number[] {
  const bytes = crypto.getRandomValues(new Uint8Array(RANDOM_CHARS));
  // A loop, not Array.from with a mapper: a request id was 9-16 % of a catalog GET's CPU samples,
  // most of it here (bench/results/floors.md).
  const digits: number[] = [];
  for (let i = 0; i < RANDOM_CHARS; i++) digits.push((bytes[i] as number) & 31);
  return digits;
}

/** Adds one to a base32 digit array; the top digit is kept below 16 so this never overflows. */
function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    const d = next[i] as number;
    if (d < 31) {
      next[i] = d + 1;
      return next;
    }
    next[i] = 0;
  }
  throw new Error("id randomness overflow");
}

/**
 * A prefixed, time-sortable id (ULID body: 10 chars of milliseconds, 16 of randomness).
 * Within one isolate ids are strictly increasing, even inside one millisecond or when the
 * clock steps back; across isolates the 80 random bits keep them unique.
 *
 * @example
 * newId("customer") // "cus_01JDB6N6Y8D4Q0Z5X4K3V2T1SR"
 */
export function newId(kind: IdKind): string {
  let ms = nowMs();
  if (ms <= lastMs) {
    ms = lastMs;
    lastRandom = increment(lastRandom);
  } else {
    lastMs = ms;
    lastRandom = randomDigits();
    // Headroom for in-millisecond increments.
    lastRandom[0] = (lastRandom[0] as number) & 15;
  }
  let time = "";
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  let random = "";
  for (const d of lastRandom) random += ALPHABET[d];
  return `${ID_PREFIX[kind]}_${time}${random}`;
}

/** True when `id` has the prefix of `kind` and a well-formed body. */
export function isId(kind: IdKind, id: string): boolean {
  const prefix = `${ID_PREFIX[kind]}_`;
  return id.startsWith(prefix) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id.slice(prefix.length));
}
