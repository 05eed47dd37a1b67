/**
 * What each endpoint costs, exactly: the D1 round trips its response waits for, the rows D1
 * reads and writes on that path (D1's own counts, index entries included: `D1-Round-Trips`,
 * `D1-Rows-Read`, `D1-Rows-Written`, EXPOSE_DB_METRICS), and the queue sends the request
 * makes, before or after its response (the producers are spied on, the request's background
 * work awaited). Every request runs on a warmed API-key cache: a key's first request per
 * isolate and 30 s adds the directory's round trip and its row. A change that adds a round
 * trip, a read or an index write fails here rather than in a benchmark; the table with CPU
 * time is bench/results/endpoint-costs.md. Every write a caller asks for reads and writes one
 * row more, in its own batch: its environment's write budget (src/http/write-budget.ts).
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterResponses } from "../../helpers/after-response";
import { type ApiClient, type ApiResponse, client, expectStatus, request } from "../../helpers/api";
import { topUp } from "../../helpers/balance";
import { useClock } from "../../helpers/clock";
import {
  createAccount,
  createCustomer,
  createDestination,
  createInstruction,
  insertEvent,
  validInstruction,
} from "../../helpers/factories";
import {
  customerWithAddress,
  esIssuer,
  esProfile,
  type Invoice,
  issue,
  ivaLine,
  workedLine,
} from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { runPdfGeneration } from "../../helpers/pdf";
import { esAccount, runSubmissions } from "../../helpers/verifactu";

type Cost = { roundTrips: number; rowsRead: number; rowsWritten: number; queueSends: number };

const PRODUCERS = ["WEBHOOKS", "VERIFICATIONS", "VERIFACTU_SUBMISSIONS", "INVOICE_PDFS"] as const;
let sends = 0;

// Every send is counted and dropped: the queues' consumers run in no test here.
beforeEach(() => {
  for (const name of PRODUCERS) {
    const producer = env[name] as Queue<unknown>;
    vi.spyOn(producer, "send").mockImplementation(async () => {
      sends++;
      return {} as QueueSendResponse;
    });
    vi.spyOn(producer, "sendBatch").mockImplementation(async () => {
      sends++;
      return {} as QueueSendBatchResponse;
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

const header = (res: ApiResponse, name: string) => Number(res.headers.get(name) ?? Number.NaN);

/**
 * `call`'s response (with `status`, or the test fails with it) and its cost, the key's cache
 * warmed just before (GET /v1/account) and the request's background work awaited.
 */
async function measure(api: ApiClient, call: () => Promise<ApiResponse>, status = 200) {
  expectStatus(await api.get("/v1/account"), 200);
  await afterResponses();
  const before = sends;
  const res = await call();
  expectStatus(res, status);
  await afterResponses();
  const cost: Cost = {
    roundTrips: header(res, "D1-Round-Trips"),
    rowsRead: header(res, "D1-Rows-Read"),
    rowsWritten: header(res, "D1-Rows-Written"),
    queueSends: sends - before,
  };
  return { res, cost };
}

/** Asserts `cost`, with the response in the failure message. */
async function expectCost(api: ApiClient, call: () => Promise<ApiResponse>, expected: Cost, status = 200) {
  const { res, cost } = await measure(api, call, status);
  expect(cost, res.text.slice(0, 500)).toEqual(expected);
  return res;
}

const cost = (roundTrips: number, rowsRead: number, rowsWritten: number, queueSends = 0): Cost => ({
  roundTrips,
  rowsRead,
  rowsWritten,
  queueSends,
});

/** The bench's issuance: three lines with IVA and IRPF. */
const threeLines = [
  workedLine,
  { ...workedLine, description: "Design" },
  { ...workedLine, description: "Support" },
];

describe("public routes touch no D1 (they run before the D1 middleware)", () => {
  it.each(["/health", "/v1/tax-regimes", "/v1/tax-regimes/es", "/v1/verifactu/declaration"])(
    "GET %s",
    async (path) => {
      const before = sends;
      const res = await request("GET", path);
      expectStatus(res, 200);
      expect(res.headers.get("D1-Round-Trips")).toBeNull();
      expect(sends - before).toBe(0);
    },
  );
});

describe("account and balance", () => {
  it("GET /v1/account", async () => {
    const { api } = await esIssuer();
    await expectCost(api, () => api.get("/v1/account"), cost(1, 2, 0));
  });

  it("PATCH /v1/account", async () => {
    const { api } = await esIssuer();
    await expectCost(api, () => api.patch("/v1/account", { legal_name: "Otra Emisora SL" }), cost(3, 5, 1));
  });

  it("GET /v1/balance", async () => {
    const { account, api } = await esIssuer();
    await topUp(account.id, false, 10_000);
    await expectCost(api, () => api.get("/v1/balance"), cost(1, 1, 0));
  });

  it("GET /v1/balance-transactions", async () => {
    const { account, api } = await esIssuer();
    await topUp(account.id, false, 10_000);
    await topUp(account.id, false, 5_000);
    await expectCost(api, () => api.get("/v1/balance-transactions"), cost(1, 3, 0));
  });

  it("GET /v1/balance-transactions/{id}", async () => {
    const { account, api } = await esIssuer();
    const [row] = await topUp(account.id, false, 10_000);
    await expectCost(api, () => api.get(`/v1/balance-transactions/${row!.id}`), cost(1, 1, 0));
  });
});

describe("customers and tax IDs", () => {
  it("POST /v1/customers (Spanish NIF and address: its registry check is queued)", async () => {
    const { api } = await esIssuer();
    await expectCost(
      api,
      () =>
        api.post("/v1/customers", {
          name: "Cliente Dos SA",
          tax_id: { country: "ES", type: "es_nif", value: "A58818501" },
          address: { line_1: "Gran Vía 2", city: "Madrid", postal_code: "28013", country: "ES" },
        }),
      cost(1, 5, 18, 1),
      201,
    );
  });

  it("GET /v1/customers/{id}", async () => {
    const { api, customer } = await esIssuer();
    await expectCost(api, () => api.get(`/v1/customers/${customer.id}`), cost(1, 1, 0));
  });

  it("GET /v1/customers (a page of 3)", async () => {
    const { api } = await esIssuer();
    await createCustomer(api);
    await createCustomer(api);
    await expectCost(api, () => api.get("/v1/customers"), cost(1, 4, 0));
  });

  it("GET /v1/customers?q= (search)", async () => {
    const { api } = await esIssuer();
    await createCustomer(api, { name: "Zapatería Ejemplo" });
    await expectCost(api, () => api.get("/v1/customers?q=Zapater"), cost(1, 6, 0));
  });

  it("PATCH /v1/customers/{id}", async () => {
    const { api, customer } = await esIssuer();
    await expectCost(
      api,
      () => api.patch(`/v1/customers/${customer.id}`, { name: "Cliente Tres SA" }),
      cost(2, 8, 9),
    );
  });

  it("DELETE /v1/customers/{id}", async () => {
    const { api } = await esIssuer();
    const other = await createCustomer(api);
    await expectCost(api, () => api.del(`/v1/customers/${other.id}`), cost(2, 8, 9), 204);
  });

  it("GET /v1/tax-ids/{id}", async () => {
    const { api, customer } = await esIssuer();
    await expectCost(api, () => api.get(`/v1/tax-ids/${customer.tax_id.id}`), cost(1, 1, 0));
  });
});

describe("payment instructions", () => {
  it("POST /v1/payment-instructions", async () => {
    const { api } = await esIssuer();
    await expectCost(api, () => api.post("/v1/payment-instructions", validInstruction), cost(1, 2, 10), 201);
  });

  it("GET /v1/payment-instructions/{id}", async () => {
    const { api } = await esIssuer();
    const pmi = await createInstruction(api);
    await expectCost(api, () => api.get(`/v1/payment-instructions/${pmi.id}`), cost(1, 1, 0));
  });

  it("GET /v1/payment-instructions (a page of 2)", async () => {
    const { api } = await esIssuer();
    await createInstruction(api);
    await createInstruction(api, { label: "Second" });
    await expectCost(api, () => api.get("/v1/payment-instructions"), cost(1, 3, 0));
  });

  it("PATCH /v1/payment-instructions/{id}", async () => {
    const { api } = await esIssuer();
    const pmi = await createInstruction(api);
    await expectCost(
      api,
      () => api.patch(`/v1/payment-instructions/${pmi.id}`, { label: "Renamed" }),
      cost(2, 7, 8),
    );
  });

  it("DELETE /v1/payment-instructions/{id}", async () => {
    const { api } = await esIssuer();
    const pmi = await createInstruction(api);
    await expectCost(api, () => api.del(`/v1/payment-instructions/${pmi.id}`), cost(2, 7, 8), 204);
  });
});

describe("events and event destinations", () => {
  it("GET /v1/events (a page of 3)", async () => {
    const { api } = await esIssuer();
    await createCustomer(api);
    await expectCost(api, () => api.get("/v1/events"), cost(1, 3, 0));
  });

  it("GET /v1/events/{id}", async () => {
    const { account, api } = await esIssuer();
    const id = await insertEvent(account.id);
    await expectCost(api, () => api.get(`/v1/events/${id}`), cost(1, 1, 0));
  });

  it("POST /v1/event-destinations", async () => {
    const { api } = await esIssuer();
    await expectCost(
      api,
      () =>
        api.post("/v1/event-destinations", {
          ...{ name: "Hooks", url: "https://hooks.example.com/a" },
          enabled_events: ["*"],
        }),
      cost(1, 3, 4),
      201,
    );
  });

  it("GET /v1/event-destinations/{id}", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    await expectCost(api, () => api.get(`/v1/event-destinations/${dest.id}`), cost(1, 1, 0));
  });

  it("GET /v1/event-destinations (a page of 2)", async () => {
    const { api } = await esIssuer();
    await createDestination(api);
    await createDestination(api);
    await expectCost(api, () => api.get("/v1/event-destinations"), cost(1, 3, 0));
  });

  it("PATCH /v1/event-destinations/{id}", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    await expectCost(
      api,
      () => api.patch(`/v1/event-destinations/${dest.id}`, { name: "Renamed" }),
      cost(2, 4, 2),
    );
  });

  it("DELETE /v1/event-destinations/{id}", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    await expectCost(api, () => api.del(`/v1/event-destinations/${dest.id}`), cost(1, 2, 1), 204);
  });

  it("POST /v1/event-destinations/{id}/disable", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    await expectCost(api, () => api.post(`/v1/event-destinations/${dest.id}/disable`, {}), cost(2, 4, 2));
  });

  it("POST /v1/event-destinations/{id}/enable", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    expectStatus(await api.post(`/v1/event-destinations/${dest.id}/disable`, {}), 200);
    await expectCost(api, () => api.post(`/v1/event-destinations/${dest.id}/enable`, {}), cost(2, 4, 2));
  });

  it("POST /v1/event-destinations/{id}/rotate-secret", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    await expectCost(
      api,
      () => api.post(`/v1/event-destinations/${dest.id}/rotate-secret`, {}),
      cost(1, 3, 2),
    );
  });

  it("POST /v1/event-destinations/{id}/ping (its delivery queued before the response)", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    await expectCost(api, () => api.post(`/v1/event-destinations/${dest.id}/ping`, {}), cost(2, 2, 7, 1));
  });

  it("POST /v1/event-destinations/{id}/resend (its delivery queued before the response)", async () => {
    const { account, api } = await esIssuer();
    const dest = await createDestination(api);
    const event = await insertEvent(account.id);
    await expectCost(
      api,
      () => api.post(`/v1/event-destinations/${dest.id}/resend`, { event }),
      cost(1, 2, 0, 1),
    );
  });

  it("GET /v1/event-destinations/{id}/attempts", async () => {
    const { api } = await esIssuer();
    const dest = await createDestination(api);
    await expectCost(api, () => api.get(`/v1/event-destinations/${dest.id}/attempts`), cost(2, 1, 0));
  });
});

describe("invoices", () => {
  it("POST /v1/invoices (Test, 3 lines with IVA and IRPF: its PDF and its record's sending queued)", async () => {
    const { api, customer } = await esIssuer();
    await expectCost(
      api,
      () => api.post("/v1/invoices", { customer: customer.id, lines: threeLines }),
      cost(2, 17, 39, 2),
      201,
    );
  });

  it("POST /v1/invoices (Live Spanish issuance, 3 lines)", async () => {
    const account = await createAccount();
    const live = await readyLive(account);
    const customer = await customerWithAddress(live);
    await expectCost(
      live,
      () => live.post("/v1/invoices", { customer: customer.id, lines: threeLines }),
      cost(2, 17, 39, 2),
      201,
    );
  });

  it("POST /v1/invoices (global account, 1 untaxed line)", async () => {
    const account = await createAccount({ taxRegime: "global" });
    const api = client(account.testKey);
    const customer = await createCustomer(api, {
      name: "Initech Inc",
      tax_id: { country: "US", type: "local", value: "US123456" },
    });
    await expectCost(
      api,
      () =>
        api.post("/v1/invoices", {
          customer: customer.id,
          lines: [{ description: "Item", quantity: "1", unit_price: "100", taxes: [] }],
        }),
      cost(2, 7, 33, 1),
      201,
    );
  });

  it("POST /v1/invoices with draft: true", async () => {
    const { api, customer } = await esIssuer();
    await expectCost(
      api,
      () => api.post("/v1/invoices", { draft: true, customer: customer.id, lines: threeLines }),
      cost(2, 5, 20),
      201,
    );
  });

  it("PATCH /v1/invoices/{id} (a draft)", async () => {
    const { api, customer } = await esIssuer();
    const draft = await api.post("/v1/invoices", { draft: true, customer: customer.id, lines: threeLines });
    expectStatus(draft, 201);
    const id = (draft.body as Invoice).id;
    await expectCost(api, () => api.patch(`/v1/invoices/${id}`, { lines: [ivaLine("50")] }), cost(3, 12, 20));
  });

  it("DELETE /v1/invoices/{id} (a draft)", async () => {
    const { api, customer } = await esIssuer();
    const draft = await api.post("/v1/invoices", { draft: true, customer: customer.id, lines: threeLines });
    expectStatus(draft, 201);
    await expectCost(api, () => api.del(`/v1/invoices/${(draft.body as Invoice).id}`), cost(2, 8, 8));
  });

  it("POST /v1/invoices/{id}/finalize", async () => {
    const { api, customer } = await esIssuer();
    const draft = await api.post("/v1/invoices", { draft: true, customer: customer.id, lines: threeLines });
    expectStatus(draft, 201);
    await expectCost(
      api,
      () => api.post(`/v1/invoices/${(draft.body as Invoice).id}/finalize`, {}),
      cost(3, 23, 41, 2),
    );
  });

  it("GET /v1/invoices/{id}", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await expectCost(api, () => api.get(`/v1/invoices/${invoice.id}`), cost(1, 1, 0));
  });

  describe("GET /v1/invoices, a page of 2 of 3 invoices", () => {
    async function threeInvoices() {
      const setup = await esIssuer();
      for (let i = 0; i < 3; i++)
        await issue(setup.api, { customer: setup.customer.id, lines: [ivaLine("100")] });
      return setup;
    }

    it("GET /v1/invoices?limit=2", async () => {
      const { api } = await threeInvoices();
      await expectCost(api, () => api.get("/v1/invoices?limit=2"), cost(1, 3, 0));
    });

    it("GET /v1/invoices?customer=&limit=2", async () => {
      const { api, customer } = await threeInvoices();
      await expectCost(api, () => api.get(`/v1/invoices?customer=${customer.id}&limit=2`), cost(1, 3, 0));
    });

    it("GET /v1/invoices?status=issued&limit=2", async () => {
      const { api } = await threeInvoices();
      await expectCost(api, () => api.get("/v1/invoices?status=issued&limit=2"), cost(1, 3, 0));
    });

    it("GET /v1/invoices?payment_status=unpaid&limit=2", async () => {
      const { api } = await threeInvoices();
      await expectCost(api, () => api.get("/v1/invoices?payment_status=unpaid&limit=2"), cost(1, 3, 0));
    });

    it("GET /v1/invoices?issue_date[gte]=&limit=2", async () => {
      const { api } = await threeInvoices();
      await expectCost(api, () => api.get("/v1/invoices?issue_date[gte]=2000-01-01&limit=2"), cost(1, 3, 0));
    });

    it("GET /v1/invoices?issue_date[gte]=&limit=2&starting_after= (the cursor's date read first)", async () => {
      const { api } = await threeInvoices();
      const first = await api.get("/v1/invoices?issue_date[gte]=2000-01-01&limit=2");
      const last = (first.body as { data: Invoice[] }).data.at(-1)!.id;
      await expectCost(
        api,
        () => api.get(`/v1/invoices?issue_date[gte]=2000-01-01&limit=2&starting_after=${last}`),
        cost(2, 4, 0),
      );
    });
  });

  it("GET /v1/invoices?overdue=true (one overdue invoice the job has not announced yet, one not due)", async () => {
    const clock = useClock(Date.UTC(2026, 10, 20, 12));
    const { api, customer } = await esIssuer();
    const pmi = await createInstruction(api);
    for (const due_date of ["2026-11-21", "2026-12-31"]) {
      await issue(api, {
        customer: customer.id,
        lines: [ivaLine("100")],
        payment_terms: { due_date, options: [pmi.id] },
      });
    }
    clock.set(Date.UTC(2026, 10, 25, 12));
    await expectCost(api, () => api.get("/v1/invoices?overdue=true"), cost(1, 3, 0));
  });

  it("GET /v1/invoices/{id}/pdf (the stored PDF)", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await runPdfGeneration(invoice.id);
    await expectCost(api, () => api.get(`/v1/invoices/${invoice.id}/pdf`), cost(1, 1, 0));
  });

  it("GET /v1/invoices/{id}/pdf (not stored yet: rendered now and stored)", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await expectCost(api, () => api.get(`/v1/invoices/${invoice.id}/pdf`), cost(2, 6, 8));
  });

  it("GET /v1/invoices/{id}/ubl", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await expectCost(api, () => api.get(`/v1/invoices/${invoice.id}/ubl`), cost(1, 1, 0));
  });

  it("GET /v1/invoices/{id}/facturae", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await expectCost(api, () => api.get(`/v1/invoices/${invoice.id}/facturae`), cost(1, 1, 0));
  });

  it("POST /v1/invoices/{id}/void (its cancellation record's sending and its PDF queued)", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await expectCost(
      api,
      () => api.post(`/v1/invoices/${invoice.id}/void`, { reason: "Issued by mistake" }),
      cost(2, 21, 16, 2),
    );
  });
});

describe("VERI*FACTU", () => {
  it("GET /v1/invoices/{id}/verifactu-record (sealed: the consumer has sent it)", async () => {
    const { account, api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await runSubmissions({ accountId: account.id, live: false });
    await expectCost(api, () => api.get(`/v1/invoices/${invoice.id}/verifactu-record`), cost(2, 2, 0));
  });

  it("GET /v1/invoices/{id}/verifactu-record (moments after issuance: its chain sealed now)", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    await expectCost(api, () => api.get(`/v1/invoices/${invoice.id}/verifactu-record`), cost(6, 8, 2));
  });

  it("GET /v1/invoices/{id}/verifactu-records/{record}", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: threeLines });
    const record = invoice.verifactu?.records[0]?.id;
    await expectCost(
      api,
      () => api.get(`/v1/invoices/${invoice.id}/verifactu-records/${record}`),
      cost(6, 8, 2),
    );
  });

  it("GET /v1/verifactu/status", async () => {
    const { api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    await expectCost(api, () => api.get("/v1/verifactu/status"), cost(1, 2, 0));
  });

  it("POST /v1/invoices/{id}/verifactu/resubmit (a rejected registration)", async () => {
    const { api, chain } = await esAccount({
      ...esProfile,
      tax_id: { country: "ES", type: "es_nif", value: "99999999R" },
    });
    const invoice = await issue(api, { type: "simplified", lines: [ivaLine()] });
    await runSubmissions(chain);
    await expectCost(
      api,
      () => api.post(`/v1/invoices/${invoice.id}/verifactu/resubmit`, {}),
      cost(3, 13, 7, 1),
    );
  });
});

describe("payments", () => {
  async function paidOnce() {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    const res = await api.post(`/v1/invoices/${invoice.id}/payments`, { amount: "21.00" });
    expectStatus(res, 201);
    return { api, invoice, payment: res.body as { id: string } };
  }

  it("POST /v1/invoices/{id}/payments", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine("100")] });
    await expectCost(
      api,
      () => api.post(`/v1/invoices/${invoice.id}/payments`, { amount: "121.00" }),
      cost(2, 25, 20),
      201,
    );
  });

  it("GET /v1/payments/{id}", async () => {
    const { api, payment } = await paidOnce();
    await expectCost(api, () => api.get(`/v1/payments/${payment.id}`), cost(1, 1, 0));
  });

  it("GET /v1/payments", async () => {
    const { api } = await paidOnce();
    await expectCost(api, () => api.get("/v1/payments"), cost(1, 2, 0));
  });

  it("DELETE /v1/payments/{id}", async () => {
    const { api, payment } = await paidOnce();
    await expectCost(api, () => api.del(`/v1/payments/${payment.id}`), cost(2, 9, 10));
  });
});
