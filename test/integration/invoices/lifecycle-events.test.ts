/**
 * lifecycle.md's events reach a destination like every other event: through the real local
 * queue and consumer, POSTed signed with the destination's secret (the receiver is a mocked
 * outbound `fetch`, the network boundary).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { expectStatus } from "../../helpers/api";
import { createDestination } from "../../helpers/factories";
import { esIssuer, ivaLine } from "../../helpers/invoices";
import { paid } from "../../helpers/payments";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { type Call, captureFetch } from "../../helpers/webhooks";

let calls: Call[] = [];
beforeEach(() => {
  calls = captureFetch().calls;
});
afterEach(() => vi.restoreAllMocks());

const LIFECYCLE = [
  "invoice.created",
  "invoice.updated",
  "invoice.deleted",
  "invoice.issued",
  "invoice.paid",
  "invoice.voided",
  "payment.created",
  "payment.deleted",
] as const;

describe("lifecycle events are delivered signed", () => {
  it("every new lifecycle event type arrives signed at a subscribed destination", async () => {
    const { api, customer } = await esIssuer();
    const dest = await createDestination(api, { enabled_events: [...LIFECYCLE] });
    const line = { customer: customer.id, lines: [ivaLine("100")] };

    const kept = (await api.post("/v1/invoices", { draft: true, ...line })).body as { id: string };
    expectStatus(await api.patch(`/v1/invoices/${kept.id}`, { notes: "Editado" }), 200);
    const dropped = (await api.post("/v1/invoices", { draft: true, ...line })).body as { id: string };
    expectStatus(await api.del(`/v1/invoices/${dropped.id}`), 200);
    expectStatus(await api.post(`/v1/invoices/${kept.id}/finalize`), 200);
    const payment = await paid(api, kept.id, { amount: "121.00" });
    expectStatus(await api.del(`/v1/payments/${payment.id}`), 200);
    const mistaken = (await api.post("/v1/invoices", line)).body as { id: string };
    expectStatus(await api.post(`/v1/invoices/${mistaken.id}/void`, { reason: "Issued by mistake" }), 200);

    const received = () => calls.filter((c) => c.url === dest.url);
    await vi.waitFor(() => expect(received().length).toBeGreaterThanOrEqual(LIFECYCLE.length + 1), {
      timeout: 10_000,
      interval: 20,
    });
    const types = received().map((c) => JSON.parse(c.body).type as string);
    expect(new Set(types)).toEqual(new Set(LIFECYCLE));
    for (const call of received()) {
      const signature = parseSignature(call.headers.get("service-signature"));
      if (!signature) throw new Error("unsigned delivery");
      expect(signature.v1).toBe(await referenceHmac(dest.secret, `${signature.t}.${call.body}`));
    }
  });
});
