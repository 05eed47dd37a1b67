/**
 * `tax_id.verification.completed` and `tax_id.verification.failed` are events like every
 * other: written with the verification, then delivered by the webhook pipeline (the real
 * local queue and its consumer) to a mocked outbound `fetch`, signed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { client, expectStatus } from "../../helpers/api";
import { createAccount, createDestination } from "../../helpers/factories";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { captureChecks, playChecks } from "../../helpers/verifications";
import { type Call, captureFetch, waitOutStrays } from "../../helpers/webhooks";

afterEach(() => {
  vi.restoreAllMocks();
});

const TYPES = ["tax_id.verification.completed", "tax_id.verification.failed"] as const;

describe("verification events reach a subscribed destination, signed", () => {
  it.each([
    ["ESB12345674", "tax_id.verification.completed"],
    ["ES00000000T", "tax_id.verification.failed"],
  ] as const)("%s: the destination receives %s, thin, signed with its secret", async (value, type) => {
    const { calls } = captureFetch();
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const dest = await createDestination(api, { enabled_events: [...TYPES] });
    const res = await api.post("/v1/customers", {
      name: "Cliente SA",
      tax_id: { country: "ES", type: "eu_vat", value },
    });
    expectStatus(res, 201);
    const taxId = res.body.tax_id;
    await playChecks(checks);

    const toDest = () => calls.filter((c) => c.url === dest.url);
    await vi.waitFor(() => expect(toDest()).toHaveLength(1), { timeout: 5000, interval: 10 });
    const call = toDest()[0] as Call;
    const body = JSON.parse(call.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: "event",
      type,
      live: false,
      created_at: expect.any(String),
      related_object: { id: taxId.id, type: "tax_id", url: `/v1/tax-ids/${taxId.id}` },
    });
    const signature = parseSignature(call.headers.get("service-signature"));
    expect(signature?.v1).toBe(await referenceHmac(dest.secret, `${signature?.t}.${call.body}`));

    // The full event: its snapshot is the Tax ID as GET /v1/tax-ids/{id} shows it after the check.
    const event = await api.get(`/v1/events/${body.id}`);
    expectStatus(event, 200);
    expect(event.body.data.object).toEqual((await api.get(`/v1/tax-ids/${taxId.id}`)).body);
  });

  it("a destination not subscribed to verification events receives none of them", async () => {
    const { calls } = captureFetch();
    const checks = captureChecks();
    const api = client((await createAccount()).testKey);
    const control = await createDestination(api, { enabled_events: ["customer.created", ...TYPES] });
    const other = await createDestination(api, { enabled_events: ["customer.created"] });
    await api.post("/v1/customers", {
      name: "Cliente SA",
      tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
    });
    await playChecks(checks);
    await vi.waitFor(() => expect(calls.filter((c) => c.url === control.url)).toHaveLength(2), {
      timeout: 5000,
    });
    await waitOutStrays();
    const types = calls.filter((c) => c.url === other.url).map((c) => JSON.parse(c.body).type);
    expect(types).toEqual(["customer.created"]);
  });
});
