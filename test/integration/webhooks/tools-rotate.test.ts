/**
 * POST /v1/event-destinations/{id}/rotate-secret: a new signing secret, with the previous one
 * still signing (a second `v1`, Stripe's scheme) for the overlap, checked on real deliveries
 * through the `webhook-deliveries` queue and with the README's receiver.
 */
import { describe, expect, it } from "vitest";
import { verify } from "../../../scripts/receiver.mjs";
import { expectStatus, request } from "../../helpers/api";
import { useClock } from "../../helpers/clock";
import { createCustomer, createDestination } from "../../helpers/factories";
import { readDestination } from "../../helpers/reads";
import { describeAuthMatrix, expectError } from "../../helpers/security";
import { expectedSignatures, parseSignatures } from "../../helpers/signature";
import type { DestinationWithSecret } from "../../helpers/types";
import { type Call, expectCallsTo, receiverPerTest } from "../../helpers/webhooks";

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const t = receiverPerTest();

const rotatePath = (id: string) => `/v1/event-destinations/${id}/rotate-secret`;

async function rotate(id: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request("POST", rotatePath(id), body, { key: t.account.testKey, headers });
  expectStatus(res, 200);
  return { destination: res.body as DestinationWithSecret, res };
}

/**
 * The next delivery to `dest` (a new customer's customer.created): its body, its parsed
 * signature, and whether it is signed with exactly `secrets`, in that order.
 */
async function nextDelivery(dest: DestinationWithSecret) {
  const before = t.callsTo(dest.url).length;
  await createCustomer(t.api);
  const call = (await expectCallsTo(t.calls, dest.url, before + 1))[before] as Call;
  const header = call.headers.get("service-signature");
  const signature = parseSignatures(header);
  if (!signature) throw new Error(`malformed Service-Signature: ${header}`);
  return {
    header,
    body: call.body,
    signature,
    signedWith: async (secrets: string[]) =>
      expect(signature.v1).toEqual(await expectedSignatures(secrets, signature.t, call.body)),
  };
}

describe("rotate-secret", () => {
  it("answers the destination with a new secret, which retrieve shows from then on", async () => {
    const dest = await createDestination(t.api);
    const { destination } = await rotate(dest.id);
    expect(destination).toEqual({
      ...dest,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      updated_at: expect.stringMatching(ISO),
    });
    expect(destination.secret).not.toBe(dest.secret);
    expect(await readDestination(t.account.testKey, dest.id)).toEqual(destination);
  });

  it("during the overlap each delivery carries v1=<new>,v1=<previous>; the README's receiver accepts either secret", async () => {
    const dest = await createDestination(t.api);
    const { destination } = await rotate(dest.id);
    const delivery = await nextDelivery(dest);
    await delivery.signedWith([destination.secret, dest.secret]);
    expect(verify(delivery.header, delivery.body, destination.secret)).toBe(true);
    expect(verify(delivery.header, delivery.body, dest.secret)).toBe(true);
    const stranger = await createDestination(t.api);
    expect(verify(delivery.header, delivery.body, stranger.secret)).toBe(false);
  });

  it("the previous secret signs until now + overlap_seconds, then only the new one", async () => {
    const clock = useClock(Date.now());
    const dest = await createDestination(t.api);
    const { destination } = await rotate(dest.id, { overlap_seconds: 60 });
    clock.advance(60 * SECOND - 1);
    await (await nextDelivery(dest)).signedWith([destination.secret, dest.secret]);
    clock.advance(1);
    const after = await nextDelivery(dest);
    await after.signedWith([destination.secret]);
    expect(verify(after.header, after.body, dest.secret, after.signature.t)).toBe(false);
    expect(verify(after.header, after.body, destination.secret, after.signature.t)).toBe(true);
  });

  it("the overlap is 24 hours by default", async () => {
    const clock = useClock(Date.now());
    const dest = await createDestination(t.api);
    const { destination } = await rotate(dest.id);
    clock.advance(24 * HOUR - SECOND);
    await (await nextDelivery(dest)).signedWith([destination.secret, dest.secret]);
    clock.advance(SECOND);
    await (await nextDelivery(dest)).signedWith([destination.secret]);
  });

  it("overlap_seconds 0 retires the previous secret at once", async () => {
    const dest = await createDestination(t.api);
    const { destination } = await rotate(dest.id, { overlap_seconds: 0 });
    await (await nextDelivery(dest)).signedWith([destination.secret]);
  });

  it("rotating again during an overlap keeps one previous secret: the oldest stops at once", async () => {
    const dest = await createDestination(t.api);
    const { destination: second } = await rotate(dest.id);
    const { destination: third } = await rotate(dest.id, { overlap_seconds: 3600 });
    await (await nextDelivery(dest)).signedWith([third.secret, second.secret]);
  });

  it("a rotation retried with its Idempotency-Key answers the same secret and rotates once", async () => {
    const dest = await createDestination(t.api);
    const headers = { "Idempotency-Key": "rotate-1" };
    const first = await rotate(dest.id, {}, headers);
    const again = await rotate(dest.id, {}, headers);
    expect(again.res.headers.get("idempotent-replayed")).toBe("true");
    expect(again.destination).toEqual(first.destination);
    // Rotated twice, the previous secret would be the first rotation's.
    await (await nextDelivery(dest)).signedWith([first.destination.secret, dest.secret]);
  });

  it("a disabled destination can be rotated too", async () => {
    const dest = await createDestination(t.api);
    expectStatus(await t.api.post(`/v1/event-destinations/${dest.id}/disable`), 200);
    const { destination } = await rotate(dest.id);
    expect(destination).toMatchObject({ status: "disabled", disabled_reason: "requested" });
    expect(destination.secret).not.toBe(dest.secret);
  });

  it.each([
    ["negative", -1],
    ["over 7 days", 604_801],
    ["not whole", 1.5],
    ["a string", "60"],
    ["null", null],
    ["a boolean", true],
  ])("overlap_seconds %s is 400 parameter_invalid and changes nothing", async (_, value) => {
    const dest = await createDestination(t.api);
    const before = await readDestination(t.account.testKey, dest.id);
    expectError(
      await t.api.post(rotatePath(dest.id), { overlap_seconds: value }),
      400,
      "parameter_invalid",
      "overlap_seconds",
    );
    expect(await readDestination(t.account.testKey, dest.id)).toEqual(before);
  });

  it("overlap_seconds 604800 (7 days) is the longest accepted; other fields are 400 parameter_unknown", async () => {
    const dest = await createDestination(t.api);
    await rotate(dest.id, { overlap_seconds: 604_800 });
    expectError(
      await t.api.post(rotatePath(dest.id), { expires_in: 60 }),
      400,
      "parameter_unknown",
      "expires_in",
    );
  });
});

describeAuthMatrix({
  method: "POST",
  path: (id) => rotatePath(id),
  create: async (key) => (await createDestination(key)).id,
  read: readDestination,
});
