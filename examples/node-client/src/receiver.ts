/**
 * A tiny webhook receiver on 127.0.0.1: verify the signature on the raw body, acknowledge at
 * once, drop repeats (delivery is at least once), then hand the event on.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { components } from "../api";
import { verifySignature } from "./signature";

/** What a delivery carries: the event without its `data` (fetch `GET /v1/events/{id}` for that). */
export type ThinEvent = components["schemas"]["ThinEvent"];

export type Receiver = {
  /** Where deliveries go: the event destination's `url`. */
  url: string;
  /** The destination's signing secret (`whsec_…`); every delivery is refused until it is set. */
  secret: string;
  /** The first event that matches, received already or still to come. */
  waitFor(match: (event: ThinEvent) => boolean, timeoutMs: number): Promise<ThinEvent>;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const received: ThinEvent[] = []; // a real receiver stores ids durably and queues the work
  const listeners = new Set<() => void>();

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    if (!(await verifySignature(req.headers["service-signature"], raw, receiver.secret))) {
      console.error("webhook refused: bad or stale signature");
      res.writeHead(400).end();
      return;
    }
    res.writeHead(200).end(); // acknowledge first, work afterwards
    const event = JSON.parse(raw) as ThinEvent; // only once the signature holds
    if (received.some((seen) => seen.id === event.id)) return;
    received.push(event);
    for (const listener of listeners) listener();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/webhooks`,
    secret: "",
    waitFor: (match, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const event = received.find(match);
          if (!event) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(event);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching webhook within ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
