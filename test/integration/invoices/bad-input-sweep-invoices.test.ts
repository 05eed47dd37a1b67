/** The bad-input sweep (test/helpers/sweep.ts) over issuing: `es` ordinary and corrective, `global` with custom taxes. */
import { afterEach, beforeAll, describe, vi } from "vitest";
import { client } from "../../helpers/api";
import { createAccount, createCustomer, createInstruction } from "../../helpers/factories";
import { customerWithAddress, issue, ivaLine, setProfile, workedLine } from "../../helpers/invoices";
import { sweepWrite } from "../../helpers/sweep";

describe("bad input sweep: POST /v1/invoices", () => {
  const es = { key: "", customer: "", instruction: "", invoice: "" };
  const global = { key: "", customer: "" };
  beforeAll(async () => {
    es.key = (await createAccount({ taxRegime: "es" })).testKey;
    const api = client(es.key);
    await setProfile(api);
    es.customer = (await customerWithAddress(api)).id;
    es.instruction = (await createInstruction(es.key)).id;
    es.invoice = (await issue(api, { customer: es.customer, lines: [ivaLine()] })).id;
    global.key = (await createAccount({ taxRegime: "global" })).testKey;
    global.customer = (await createCustomer(global.key)).id;
  });
  afterEach(() => vi.restoreAllMocks());

  sweepWrite({
    name: "es ordinary",
    method: "POST",
    path: () => "/v1/invoices",
    key: () => es.key,
    ok: 201,
    body: () => ({
      customer: es.customer,
      series: "SWEEP",
      lines: [{ ...workedLine, unit_code: "HUR" }],
      payment_terms: { due_date: "2099-01-31", options: [es.instruction] },
      notes: "Gracias",
    }),
  });
  sweepWrite({
    name: "es corrective",
    method: "POST",
    path: () => "/v1/invoices",
    key: () => es.key,
    ok: 201,
    body: () => ({
      type: "corrective",
      corrects: { invoice: es.invoice, reason: "R1" },
      lines: [ivaLine("-10")],
    }),
  });
  sweepWrite({
    name: "global, custom taxes",
    method: "POST",
    path: () => "/v1/invoices",
    key: () => global.key,
    ok: 201,
    body: () => ({
      customer: global.customer,
      currency: "USD",
      issue_date: "2026-01-15",
      lines: [
        {
          description: "Consulting",
          quantity: "2",
          unit_price: "100.00",
          taxes: [{ name: "Sales tax", rate: "8.875%", effect: "added" }],
        },
      ],
    }),
  });
});
