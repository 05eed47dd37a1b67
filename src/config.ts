import * as z from "zod";

// Queues refuse a delay above 12 hours.
const MAX_QUEUE_DELAY_SECONDS = 43_200;

/** "60,600,3600,21600": whole seconds to wait after failed attempt 1, 2, 3, 4. */
const delayList = z
  .string()
  .transform((s) => s.split(",").map((part) => part.trim()))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d+$/, "each delay must be whole seconds")
          .transform(Number)
          .refine(
            (n) => n <= MAX_QUEUE_DELAY_SECONDS,
            `each delay must be at most ${MAX_QUEUE_DELAY_SECONDS}`,
          ),
      )
      .min(1, "must list at least one delay"),
  );

/** A price in EUR ("0.10"): at least 0, at most 2 decimals (EUR's minor unit); output in cents. */
const price = z
  .string()
  .regex(
    /^(0|[1-9]\d{0,8})(\.\d{1,2})?$/,
    'must be a decimal string in EUR such as "0.10" (at most 2 decimals)',
  )
  .transform((s) => {
    const [whole = "0", fraction = ""] = s.split(".");
    return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  });

const flag = z.enum(["true", "false"]).transform((v) => v === "true");

/** Another AEAT endpoint (a seal certificate's, pre-production): HTTPS, as the mTLS binding needs. */
const aeatUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional();

const configSchema = z.object({
  /** `development` only under `npm start`: loopback webhook URLs and the bench floors. */
  APP_ENV: z.enum(["production", "development"]),
  /** Adds D1-Rows-Read / D1-Rows-Written headers (`npm start` and the tests). */
  EXPOSE_DB_METRICS: flag,
  WEBHOOK_RETRY_DELAYS: delayList,
  /** Tax ID registry retries (compliance.md: 1 min, 10 min, 1 h, 6 h); `npm start` passes seconds. */
  VERIFICATION_RETRY_DELAYS: delayList.prefault("60,600,3600,21600"),
  /** "off" only for bench/ under `npm start`: a load test from one key would be all 429s. */
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /** What issuing one invoice debits from the usage balance (compliance.md: default "0.10"). */
  USAGE_PRICE_INVOICE: price.prefault("0.10"),
  // Read where the registry clients are built (src/verification, src/verifactu); checked here.
  AEAT_VNIF_URL: aeatUrl,
  AEAT_VERIFACTU_URL: aeatUrl,
  // VERI*FACTU operator: the holder of the deployment's AEAT certificate (verifactu-system.md §4).
  VERIFACTU_OPERATOR_NIF: z
    .string()
    .regex(/^[0-9A-Z]{9}$/, "must be a Spanish NIF: 9 characters, uppercase, no ES prefix")
    .optional(),
  VERIFACTU_OPERATOR_NAME: z.string().trim().min(1).max(120).optional(),
});

export type Config = {
  development: boolean;
  exposeDbMetrics: boolean;
  webhookRetryDelays: readonly number[];
  /** Seconds to wait after each unavailable registry attempt; one attempt more than delays. */
  verificationRetryDelays: readonly number[];
  /** The `[[ratelimits]]` of wrangler.toml are enforced (always, outside development). */
  rateLimits: boolean;
  /** The usage debit of one issued invoice, in euro cents. */
  usagePriceInvoice: number;
  /** Who holds the AEAT certificate and files for the accounts (its `Representante`); null: unset. */
  verifactuOperator: { nif: string; name: string } | null;
};

/**
 * The deployment's `[vars]`, checked. A malformed value is an error naming the variable,
 * never a silent fallback.
 *
 * @example
 * parseConfig({ APP_ENV: "production", EXPOSE_DB_METRICS: "false", WEBHOOK_RETRY_DELAYS: "60,600" })
 */
export function parseConfig(vars: Record<string, unknown>): Config {
  const result = configSchema.safeParse(vars);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`Invalid configuration: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  const v = result.data;
  if (v.RATE_LIMITS === "off" && v.APP_ENV !== "development") {
    throw new Error("Invalid configuration: RATE_LIMITS: off is allowed only with APP_ENV=development");
  }
  if ((v.VERIFACTU_OPERATOR_NIF === undefined) !== (v.VERIFACTU_OPERATOR_NAME === undefined)) {
    throw new Error(
      "Invalid configuration: VERIFACTU_OPERATOR_NIF and VERIFACTU_OPERATOR_NAME are set together or not at all",
    );
  }
  return {
    development: v.APP_ENV === "development",
    exposeDbMetrics: v.EXPOSE_DB_METRICS,
    webhookRetryDelays: Object.freeze(v.WEBHOOK_RETRY_DELAYS),
    verificationRetryDelays: Object.freeze(v.VERIFICATION_RETRY_DELAYS),
    rateLimits: v.RATE_LIMITS === "on",
    usagePriceInvoice: v.USAGE_PRICE_INVOICE,
    verifactuOperator:
      v.VERIFACTU_OPERATOR_NIF && v.VERIFACTU_OPERATOR_NAME
        ? { nif: v.VERIFACTU_OPERATOR_NIF, name: v.VERIFACTU_OPERATOR_NAME }
        : null,
  };
}

const parsed = new WeakMap<object, Config>();

/** The config of `env`, parsed once per isolate (the entry parses it at startup). */
export function config(env: Env): Config {
  let c = parsed.get(env);
  if (!c) {
    c = parseConfig(env as unknown as Record<string, unknown>);
    parsed.set(env, c);
  }
  return c;
}
