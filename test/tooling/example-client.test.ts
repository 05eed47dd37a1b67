/**
 * The typed client example (examples/node-client) cannot rot: its types are openapi-typescript's
 * output for the OpenAPI document as the code generates it now (vitest.config.ts builds the
 * document first), the example type-checks against them, and it runs against `npm start` on its
 * own port and state, as its README says, webhook included.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOLERANCE_SECONDS, verifySignature } from "../../examples/node-client/src/signature";
import { signatureHeader } from "../../src/webhooks/signature";
import { NODE, type NpmStart, root, startNpmStart } from "./server";

const EXAMPLE = "examples/node-client";
const run = (args: string[]) => spawnSync(NODE, args, { cwd: root, encoding: "utf8" });
const generateTypes = () =>
  run(["node_modules/openapi-typescript/bin/cli.js", ".build/public/v1/openapi.json"]);
const typeCheck = (project: string) => run(["node_modules/typescript/bin/tsc", "--noEmit", "-p", project]);

/** Runs the example as its README does (`npx tsx …`), stopped after 60 s. */
function runExample(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const tsx = "node_modules/tsx/dist/cli.mjs";
  const child = spawn(NODE, [tsx, `${EXAMPLE}/src/index.ts`], {
    cwd: root,
    env: { ...process.env, ...env },
    detached: false,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  const decoder = new TextDecoder();
  child.stdout.on("data", (chunk) => {
    out.stdout += decoder.decode(chunk);
  });
  child.stderr.on("data", (chunk) => {
    out.stderr += decoder.decode(chunk);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, ...out });
    });
  });
}

describe("the typed client example's types", () => {
  it("api.d.ts is openapi-typescript's output for the current OpenAPI document (npm run example:types)", () => {
    const generated = generateTypes();
    expect(generated.status, generated.stderr).toBe(0);
    expect(
      readFileSync(`${root}${EXAMPLE}/api.d.ts`, "utf8") === generated.stdout,
      "run npm run example:types",
    ).toBe(true);
  });

  it("the example type-checks against them", () => {
    const checked = typeCheck(EXAMPLE);
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.status).toBe(0);
  });

  it("the type check fails when the API renames a field the example reads", () => {
    // A copy beside node_modules, so that openapi-fetch and @types/node resolve as they do for
    // the example itself.
    mkdirSync(`${root}node_modules/.cache`, { recursive: true });
    const copy = mkdtempSync(`${root}node_modules/.cache/example-client-`);
    try {
      mkdirSync(`${copy}/src`, { recursive: true });
      for (const file of ["tsconfig.json", "src/index.ts", "src/receiver.ts", "src/signature.ts"]) {
        writeFileSync(`${copy}/${file}`, readFileSync(`${root}${EXAMPLE}/${file}`, "utf8"), "utf8");
      }
      const renamed = generateTypes().stdout.replaceAll("amount_payable", "amount_due");
      writeFileSync(`${copy}/api.d.ts`, renamed, "utf8");
      const checked = typeCheck(copy);
      expect(checked.status).not.toBe(0);
      expect(checked.stdout).toMatch(/src\/index\.ts.*amount_payable/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe("the example's signature verifier", () => {
  const secret = "whsec_example_secret";
  const body = '{"id":"evt_1","object":"event","type":"invoice.issued"}';
  const now = 1_800_000_000;

  it("accepts a delivery signed with the destination's secret", async () => {
    const header = await signatureHeader(secret, now, body);
    expect(await verifySignature(header, body, secret, now)).toBe(true);
  });

  it("accepts any valid v1 of the header (a rotating secret sends one per secret)", async () => {
    const header = await signatureHeader(["whsec_new_secret", secret], now, body);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(await verifySignature(header, body, secret, now)).toBe(true);
    expect(await verifySignature(header, body, "whsec_new_secret", now)).toBe(true);
  });

  it("rejects a t more than 300 seconds from its clock, either way", async () => {
    expect(TOLERANCE_SECONDS).toBe(300);
    const header = await signatureHeader(secret, now, body);
    expect(await verifySignature(header, body, secret, now + 300)).toBe(true);
    expect(await verifySignature(header, body, secret, now - 300)).toBe(true);
    expect(await verifySignature(header, body, secret, now + 301)).toBe(false);
    expect(await verifySignature(header, body, secret, now - 301)).toBe(false);
  });

  it("rejects another body, another secret, and a missing or malformed header, without throwing", async () => {
    const header = await signatureHeader(secret, now, body);
    const v1 = header.split("v1=")[1];
    expect(await verifySignature(header, `${body} `, secret, now)).toBe(false);
    expect(await verifySignature(header, body, "whsec_other", now)).toBe(false);
    for (const bad of [
      undefined,
      ["t=1", "v1=2"],
      "",
      `v1=${v1}`,
      `t=${now}`,
      `t=${now},t=${now},v1=${v1}`,
      `t=${now}.5,v1=${v1}`,
      `t=${now},v1=${v1?.toUpperCase()}`,
      `t=${now},v1=${"é".repeat(64)}`,
    ]) {
      expect(await verifySignature(bad, body, secret, now), String(bad)).toBe(false);
    }
  });
});

describe("the typed client example against npm start", () => {
  let server: NpmStart;
  let base = "";

  beforeAll(async () => {
    server = await startNpmStart("example-client");
    base = server.base;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it("the local seed gives all four dev environments a complete, valid profile and 100.00 EUR of credit: each key issues at once, but Live Spain, which has no AEAT certificate under npm start (409 verifactu_not_ready)", async () => {
    for (const key of [
      "sk_test_es_localdev",
      "sk_live_es_localdev",
      "sk_test_global_localdev",
      "sk_live_global_localdev",
    ]) {
      const get = async (path: string) => {
        const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status, `${key} GET ${path}`).toBe(200);
        return (await res.json()) as Record<string, any>;
      };
      const account = await get("/v1/account");
      expect(account.legal_name, key).toEqual(expect.any(String));
      expect(account.tax_id, key).toMatchObject({ country: expect.any(String), value: expect.any(String) });
      expect(account.address, key).toMatchObject({ line_1: expect.any(String), country: expect.any(String) });
      const credits = await get("/v1/balance-transactions?type=top_up");
      expect(
        credits.data.map((t: { amount: string }) => t.amount),
        key,
      ).toEqual(["100.00"]);
      const regimeLine =
        account.tax_regime === "es"
          ? {
              description: "Café",
              quantity: "1",
              unit_price: "2.00",
              taxes: [{ tax: "iva", rule: "general" }],
            }
          : { description: "Coffee", quantity: "1", unit_price: "2.00", taxes: [] };
      const issued = await fetch(`${base}/v1/invoices`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "simplified", lines: [regimeLine] }),
      });
      const text = await issued.clone().text();
      if (key === "sk_live_es_localdev") {
        expect(issued.status, text).toBe(409);
        expect(JSON.parse(text).error.code).toBe("verifactu_not_ready");
      } else {
        expect(issued.status, `${key}: ${text}`).toBe(201);
      }
    }
  }, 60_000);

  it("creates a Spanish customer, issues an invoice with IVA and IRPF, verifies invoice.issued and fetches the event", async () => {
    const result = await runExample({ API_BASE: base, API_KEY: "sk_test_es_localdev" });
    const output = `${result.stdout}\n--- stderr ---\n${result.stderr}\n--- server ---\n${server.output()}`;
    expect(result.code, output).toBe(0);
    expect(result.stderr, output).not.toMatch(/refused/);

    const lines = result.stdout.split("\n");
    expect(lines[0], output).toMatch(/^Customer cus_\w+ created: Cliente Ejemplo SA \(A58818501\)$/);
    const number = lines[1]?.match(/^Invoice (INV-\d{4,}) issued \(inv_\w+\)$/)?.[1];
    expect(number, output).toBeDefined();
    expect(lines.slice(2, 5), output).toEqual([
      "  iva general: 21% of 600.00 = 126.00 (added)",
      "  irpf professional: 15% of 600.00 = 90.00 (withheld)",
      "  subtotal 600.00, total 726.00, amount payable 636.00 EUR",
    ]);
    const event = lines[5]?.match(/^Webhook invoice\.issued (evt_\w+) received: signature verified$/)?.[1];
    expect(event, output).toBeDefined();
    expect(lines[6], output).toMatch(
      new RegExp(`^Event ${event} fetched: invoice\\.issued, invoice ${number} of \\d{4}-\\d\\d-\\d\\dT`),
    );
  }, 90_000);

  it("leaves no event destination behind (an account has at most 16)", async () => {
    const res = await fetch(`${base}/v1/event-destinations`, {
      headers: { authorization: "Bearer sk_test_es_localdev" },
    });
    const list = (await res.json()) as { data: unknown[] };
    expect(list.data, JSON.stringify(list)).toEqual([]);
  });
});
