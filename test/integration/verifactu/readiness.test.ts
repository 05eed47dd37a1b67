/**
 * verifactu-system.md §4: Live `es` issuance (and finalize) is refused with 409
 * `verifactu_not_ready`, naming what is missing, when the deployment cannot send that account's
 * records: no certificate binding, no software identity, or no representation for an account
 * whose NIF is not the operator's. Request validation and the issuer-profile check (400) come
 * first; nothing is written. Test mode is always ready.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { available, topUp } from "../../helpers/balance";
import { createAccount, type TestAccount } from "../../helpers/factories";
import { esProfile, ivaLine } from "../../helpers/invoices";
import {
  apoderamiento,
  liveReadyBindings,
  OPERATOR,
  readyLive,
  uniqueNif,
  unreachableCertificate,
} from "../../helpers/live-ready";
import { expectError } from "../../helpers/security";

const simplified = { type: "simplified", lines: [ivaLine()] };

/** A Live es account with a complete profile under its own NIF and `extra` (a representation). */
async function liveAccount(extra: Record<string, unknown> = {}) {
  const account = await createAccount({ taxRegime: "es" });
  const nif = uniqueNif();
  const res = await client(account.liveKey).patch("/v1/account", {
    ...esProfile,
    tax_id: { ...esProfile.tax_id, value: nif },
    ...extra,
  });
  expectStatus(res, 200);
  await topUp(account.id, true, 1_000);
  return { account, nif };
}

/** What a refused issuance must leave as it was: invoices, events and the balance. */
async function footprint(api: ApiClient) {
  const invoices = await api.get("/v1/invoices?limit=100");
  const events = await api.get("/v1/events?limit=100");
  expectStatus(invoices, 200);
  expectStatus(events, 200);
  return {
    invoices: (invoices.body as { data: unknown[] }).data.length,
    events: (events.body as { data: unknown[] }).data.length,
    available: await available(api),
  };
}

/** The suite's bindings without the software identity (the `VERIFACTU_` producer variables). */
function withoutIdentity(vars: Record<string, unknown> = {}): Env {
  const kept = Object.entries(env).filter(
    ([name]) => !/^VERIFACTU_(PRODUCER|SYSTEM|INSTALLATION|DECLARATION)/.test(name),
  );
  return { ...Object.fromEntries(kept), ...vars } as unknown as Env;
}

async function expectNotReady(
  api: ApiClient,
  account: TestAccount,
  path: string,
  body: unknown,
  missing: RegExp,
) {
  const before = await footprint(client(account.liveKey));
  const res = await api.post(path, body);
  expectError(res, 409, "verifactu_not_ready");
  expect(res.body.error.message).toMatch(missing);
  expect(res.headers.get("D1-Rows-Written"), res.text).toBe("0");
  expect(await footprint(client(account.liveKey))).toEqual(before);
  return res;
}

const withCertificate = (vars: Record<string, unknown> = {}) =>
  ({ ...env, AEAT_CERT: unreachableCertificate, ...vars }) as unknown as Env;

describe("Live es issuance is refused while the deployment cannot send the account's records", () => {
  it("no certificate binding: 409 verifactu_not_ready naming AEAT_CERT, nothing written", async () => {
    const { account } = await liveAccount({ verifactu: { representation: apoderamiento } });
    // The suite's own Worker has no AEAT_CERT.
    await expectNotReady(
      client(account.liveKey),
      account,
      "/v1/invoices",
      simplified,
      /AEAT certificate \(the AEAT_CERT binding\)/,
    );
  });

  it("no software identity (production without the VERIFACTU_ identity): 409 naming it", async () => {
    const { account } = await liveAccount({ verifactu: { representation: apoderamiento } });
    const api = client(account.liveKey, withoutIdentity({ AEAT_CERT: unreachableCertificate, ...OPERATOR }));
    const res = await expectNotReady(api, account, "/v1/invoices", simplified, /software identity/);
    expect(res.body.error.message).not.toMatch(/AEAT_CERT|representation/);
  });

  it("no representation for an account whose NIF is not the operator's: 409 naming it", async () => {
    const { account } = await liveAccount();
    const api = client(account.liveKey, liveReadyBindings);
    const res = await expectNotReady(
      api,
      account,
      "/v1/invoices",
      simplified,
      /representation.*PATCH \/v1\/account/,
    );
    expect(res.body.error.message).not.toMatch(/AEAT_CERT|software/);
  });

  it("a representation but no operator configured (its Representante): 409 naming VERIFACTU_OPERATOR_NIF", async () => {
    const { account } = await liveAccount({ verifactu: { representation: apoderamiento } });
    const api = client(account.liveKey, withCertificate());
    await expectNotReady(api, account, "/v1/invoices", simplified, /VERIFACTU_OPERATOR_NIF/);
  });

  it("everything missing at once is named at once", async () => {
    const { account } = await liveAccount();
    await expectNotReady(
      client(account.liveKey, withoutIdentity()),
      account,
      "/v1/invoices",
      simplified,
      /AEAT_CERT.*software identity.*representation/,
    );
  });

  it("finalizing a Live draft is refused the same way, and the draft stays a draft", async () => {
    const { account } = await liveAccount();
    const live = client(account.liveKey);
    const draft = await live.post("/v1/invoices", { draft: true, ...simplified });
    expectStatus(draft, 201);
    const id = (draft.body as { id: string }).id;
    await expectNotReady(live, account, `/v1/invoices/${id}/finalize`, undefined, /AEAT_CERT/);
    const after = await live.get(`/v1/invoices/${id}`);
    expect((after.body as { status: string }).status).toBe("draft");
  });
});

describe("what is checked first, and what is ready", () => {
  it("a bad request is 400, and an incomplete issuer profile is 400, before the 409", async () => {
    const account = await createAccount({ taxRegime: "es" });
    const live = client(account.liveKey);
    expectError(
      await live.post("/v1/invoices", { type: "simplified", lines: [] }),
      400,
      "parameter_invalid",
      "lines",
    );
    expectError(
      await live.post("/v1/invoices", simplified),
      400,
      "account_profile_incomplete",
      "account.legal_name",
    );
  });

  it("with the certificate, the software identity and a representation, Live issues (201)", async () => {
    const account = await createAccount({ taxRegime: "es" });
    const live = await readyLive(account);
    const res = await live.post("/v1/invoices", simplified);
    expectStatus(res, 201);
    expect(res.body).toMatchObject({ live: true, status: "issued" });
  });

  it("the operator's own account needs no representation", async () => {
    const account = await createAccount({ taxRegime: "es" });
    const nif = uniqueNif();
    const bindings = { ...liveReadyBindings, VERIFACTU_OPERATOR_NIF: nif } as Env;
    const live = client(account.liveKey, bindings);
    expectStatus(
      await live.patch("/v1/account", { ...esProfile, tax_id: { ...esProfile.tax_id, value: nif } }),
      200,
    );
    expectStatus(await live.post("/v1/invoices", simplified), 201);
  });

  it("Test mode is always ready: the suite's Worker has no certificate, and Test issues", async () => {
    const account = await createAccount({ taxRegime: "es" });
    const test = client(account.testKey);
    expectStatus(await test.patch("/v1/account", esProfile), 200);
    expectStatus(await test.post("/v1/invoices", simplified), 201);
  });

  it("a global account's Live invoices have no VERI*FACTU record and are not held back", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const live = client(account.liveKey);
    const res = await live.post("/v1/invoices", {
      type: "simplified",
      lines: [{ ...ivaLine(), taxes: [] }],
    });
    expect(res.status, res.text).toBe(201);
  });
});
