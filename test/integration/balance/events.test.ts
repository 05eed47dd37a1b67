/**
 * `billing.balance_transaction.created` is an event like every other: recorded with its
 * transaction, delivered thin and signed by the webhook pipeline (the real local queue and
 * its consumer) to a mocked outbound `fetch`. A top-up's event, written by a script that
 * cannot reach the queue, goes out with the cron sweep.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sweepUndispatched } from "../../../src/webhooks/sweep";
import { client } from "../../helpers/api";
import { topUp, transactions } from "../../helpers/balance";
import { useClock } from "../../helpers/clock";
import { createAccount, createDestination } from "../../helpers/factories";
import { esIssuer, issue, ivaLine } from "../../helpers/invoices";
import { parseSignature, referenceHmac } from "../../helpers/signature";
import { type Call, captureFetch, dispatchedAt, waitOutStrays } from "../../helpers/webhooks";

afterEach(() => {
  vi.restoreAllMocks();
});

const TYPE = "billing.balance_transaction.created";

async function expectSigned(call: Call, secret: string) {
  const signature = parseSignature(call.headers.get("service-signature"));
  expect(signature?.v1).toBe(await referenceHmac(secret, `${signature?.t}.${call.body}`));
}

describe("billing.balance_transaction.created reaches a subscribed destination, signed", () => {
  it("a destination subscribed to billing.balance_transaction.created receives one signed delivery per transaction", async () => {
    const { calls } = captureFetch();
    const { api, customer } = await esIssuer();
    const dest = await createDestination(api, { enabled_events: [TYPE] });
    await issue(api, { customer: customer.id, lines: [ivaLine()] });
    await issue(api, { customer: customer.id, lines: [ivaLine()] });

    const toDest = () => calls.filter((c) => c.url === dest.url);
    await vi.waitFor(() => expect(toDest()).toHaveLength(2), { timeout: 5000, interval: 10 });
    await waitOutStrays();
    expect(toDest()).toHaveLength(2);
    const ids = (await transactions(api)).map((t) => t.id).sort();
    const bodies = toDest().map((c) => JSON.parse(c.body));
    expect(bodies.map((b) => b.related_object.id).sort()).toEqual(ids);
    for (const [i, body] of bodies.entries()) {
      expect(body).toEqual({
        id: expect.stringMatching(/^evt_/),
        object: "event",
        type: TYPE,
        live: false,
        created_at: expect.any(String),
        related_object: {
          id: body.related_object.id,
          type: "balance_transaction",
          url: `/v1/balance-transactions/${body.related_object.id}`,
        },
      });
      await expectSigned(toDest()[i] as Call, dest.secret);
    }
  });

  it("a top-up's event waits for the cron sweep, then is delivered once, signed", async () => {
    const { calls } = captureFetch();
    const account = await createAccount();
    const api = client(account.testKey);
    const dest = await createDestination(api, { enabled_events: [TYPE] });
    const clock = useClock(Date.now());
    const [row] = await topUp(account.id, false, 5_000);
    const { results } = await env.DB.prepare("SELECT id FROM events WHERE related_object_id = ?")
      .bind(row?.id)
      .all<{ id: string }>();
    const eventId = results[0]?.id as string;
    expect(await dispatchedAt(eventId)).toBeNull();

    clock.advance(5 * 60_000 + 1_000);
    await sweepUndispatched(env);
    const toDest = () => calls.filter((c) => c.url === dest.url);
    await vi.waitFor(() => expect(toDest()).toHaveLength(1), { timeout: 5000, interval: 10 });
    const body = JSON.parse((toDest()[0] as Call).body);
    expect(body).toMatchObject({ id: eventId, type: TYPE, related_object: { id: row?.id } });
    await expectSigned(toDest()[0] as Call, dest.secret);
  });
});
