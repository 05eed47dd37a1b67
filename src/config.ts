import * as z from "zod";
import type { SistemaInformatico } from "./contracts/verifactu-record";

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

/** A whole number of bytes, at least 1 ("50000000"). */
const byteCount = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, "must be a whole number of bytes")
  .transform(Number);

const flag = z.enum(["true", "false"]).transform((v) => v === "true");

/** Another AEAT endpoint (a seal certificate's, pre-production): HTTPS, as the mTLS binding needs. */
const aeatUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional();

/**
 * A VERI*FACTU identity variable: trimmed (AEAT trims what it stores), at most `max` characters
 * (the XSD type of its `SistemaInformaticoType` element), and `valid` when given; empty is unset.
 */
const identityText = (max: number, valid?: (s: string) => boolean, message?: string) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !s || !valid || valid(s), message)
    .optional();

const isDate = (s: string) =>
  /^\d{4}-\d\d-\d\d$/.test(s) && new Date(Date.parse(s) || 0).toISOString().startsWith(s);

/**
 * The software producer's identity, as every record's `SistemaInformatico` carries it and the
 * declaración responsable states it (Orden HAC/1177/2024 art. 15.1: items a-c, h-j and l).
 * Lengths from test/fixtures/verifactu-xsd/SuministroInformacion.xsd `SistemaInformaticoType`.
 * All set or none: unset, Test records carry a development placeholder and Live has none
 * (src/verifactu/software.ts).
 */
const IDENTITY = {
  VERIFACTU_PRODUCER_NAME: identityText(120),
  // NIFType is 9 characters; the control character is checked by src/verifactu/software.ts
  // with the Spanish NIF check of src/tax-ids (this floor cannot import it).
  VERIFACTU_PRODUCER_NIF: identityText(
    9,
    (s) => /^[A-Z0-9]{9}$/.test(s),
    "must be a Spanish NIF: 9 upper-case letters and digits",
  ),
  VERIFACTU_SYSTEM_NAME: identityText(30),
  // AEAT VAL §3.1.5: exactly 2 characters, upper-case letters (not Ñ) or digits.
  VERIFACTU_SYSTEM_ID: identityText(2, (s) => /^[A-Z0-9]{2}$/.test(s), "must be 2 characters, A-Z or 0-9"),
  VERIFACTU_SYSTEM_VERSION: identityText(50),
  VERIFACTU_INSTALLATION_NUMBER: identityText(100),
  // Art. 15.1.j: the producer's full postal address (no XSD field; 300 is ours).
  VERIFACTU_PRODUCER_ADDRESS: identityText(300),
  // Art. 15.1.l: where ("Madrid, España": locality, then country) and when the producer signed.
  VERIFACTU_DECLARATION_PLACE: identityText(120),
  VERIFACTU_DECLARATION_DATE: identityText(10, isDate, "must be a date, YYYY-MM-DD"),
};

/** The development placeholder's NIF (a well-formed DNI of nobody): refused in production. */
export const PLACEHOLDER_NIF = "00000000T";

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
  /** Bytes an account's Live / Test environment may write through the API a UTC day (docs/api-conventions.md#write-budgets). */
  WRITE_BUDGET_LIVE_BYTES: byteCount.prefault("1000000000"),
  WRITE_BUDGET_TEST_BYTES: byteCount.prefault("50000000"),
  // Read where the registry clients are built (src/verification, src/verifactu); checked here.
  AEAT_VNIF_URL: aeatUrl,
  AEAT_VERIFACTU_URL: aeatUrl,
  // VERI*FACTU operator: the holder of the deployment's AEAT certificate (verifactu-system.md §4).
  VERIFACTU_OPERATOR_NIF: z
    .string()
    .regex(/^[0-9A-Z]{9}$/, "must be a Spanish NIF: 9 characters, uppercase, no ES prefix")
    .optional(),
  VERIFACTU_OPERATOR_NAME: z.string().trim().min(1).max(120).optional(),
  ...IDENTITY,
});

type UseFlags = "TipoUsoPosibleSoloVerifactu" | "TipoUsoPosibleMultiOT" | "IndicadorMultiplesOT";

/** The configured software identity and the rest of its declaration (art. 15.1.j, l). */
export type VerifactuIdentity = {
  software: Omit<SistemaInformatico, UseFlags>;
  address: string;
  place: string;
  /** YYYY-MM-DD. */
  date: string;
};

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
  /** Bytes an environment may write through the API a UTC day: Live, Test. */
  writeBudget: { live: number; test: number };
  /** Who holds the AEAT certificate and files for the accounts (its `Representante`); null: unset. */
  verifactuOperator: { nif: string; name: string } | null;
  /** The VERI*FACTU software identity (src/verifactu/software.ts); null: the `VERIFACTU_` variables unset. */
  verifactuSoftware: VerifactuIdentity | null;
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
  const development = v.APP_ENV === "development";
  const names = Object.keys(IDENTITY) as (keyof typeof IDENTITY)[];
  const unset = names.filter((name) => !v[name]);
  if (unset.length > 0 && unset.length < names.length) {
    throw new Error(`Invalid configuration: ${unset[0]}: must be set with the other VERIFACTU_ variables`);
  }
  if (v.VERIFACTU_PRODUCER_NIF === PLACEHOLDER_NIF && !development) {
    throw new Error("Invalid configuration: VERIFACTU_PRODUCER_NIF: the development placeholder");
  }
  return {
    development,
    exposeDbMetrics: v.EXPOSE_DB_METRICS,
    webhookRetryDelays: Object.freeze(v.WEBHOOK_RETRY_DELAYS),
    verificationRetryDelays: Object.freeze(v.VERIFICATION_RETRY_DELAYS),
    rateLimits: v.RATE_LIMITS === "on",
    usagePriceInvoice: v.USAGE_PRICE_INVOICE,
    writeBudget: { live: v.WRITE_BUDGET_LIVE_BYTES, test: v.WRITE_BUDGET_TEST_BYTES },
    verifactuOperator:
      v.VERIFACTU_OPERATOR_NIF && v.VERIFACTU_OPERATOR_NAME
        ? { nif: v.VERIFACTU_OPERATOR_NIF, name: v.VERIFACTU_OPERATOR_NAME }
        : null,
    verifactuSoftware: unset.length
      ? null
      : {
          software: {
            NombreRazon: v.VERIFACTU_PRODUCER_NAME!,
            NIF: v.VERIFACTU_PRODUCER_NIF!,
            NombreSistemaInformatico: v.VERIFACTU_SYSTEM_NAME!,
            IdSistemaInformatico: v.VERIFACTU_SYSTEM_ID!,
            Version: v.VERIFACTU_SYSTEM_VERSION!,
            NumeroInstalacion: v.VERIFACTU_INSTALLATION_NUMBER!,
          },
          address: v.VERIFACTU_PRODUCER_ADDRESS!,
          place: v.VERIFACTU_DECLARATION_PLACE!,
          date: v.VERIFACTU_DECLARATION_DATE!,
        },
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
