/**
 * invoices.md, "Numbering": counters per account, environment and series (and customer for
 * `customer` numbering), at least 4 digits, gapless under concurrency, a series bound to one
 * type and numbering mode, and issue dates that never go backwards within a counter.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../../src/lib/ids";
import { createInstruction } from "../../helpers/factories";
import { customerWithAddress, esIssuer, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { listEvents } from "../../helpers/reads";
import { expectError } from "../../helpers/security";
import type { Customer } from "../../helpers/types";

const numbers = (invoices: Invoice[]) => invoices.map((i) => i.number);

describe("Numbering: <series>-<counter>, at least 4 digits, starting at 1", () => {
  it("consecutive issues in one series are numbered INV-0001, INV-0002, INV-0003", async () => {
    const { api, customer } = await esIssuer();
    const issued: Invoice[] = [];
    for (let i = 0; i < 3; i++) issued.push(await issue(api, { customer: customer.id, lines: [ivaLine()] }));
    expect(numbers(issued)).toEqual(["INV-0001", "INV-0002", "INV-0003"]);
    expect(issued.map((i) => i.series)).toEqual(["INV", "INV", "INV"]);
  });

  it("customer numbering is <series>-<customer invoice_prefix>-<counter>, one counter per customer", async () => {
    const { api } = await esIssuer();
    const acme = await customerWithAddress(api, { invoice_prefix: "acme" });
    const beta = await customerWithAddress(api, { invoice_prefix: "BETA42" });
    const body = (customer: string) => ({
      customer,
      series: "F26",
      numbering: "customer",
      lines: [ivaLine()],
    });
    const a1 = await issue(api, body(acme.id));
    const a2 = await issue(api, body(acme.id));
    const b1 = await issue(api, body(beta.id));
    const a3 = await issue(api, body(acme.id));
    expect(numbers([a1, a2, b1, a3])).toEqual([
      "F26-ACME-0001",
      "F26-ACME-0002",
      "F26-BETA42-0001",
      "F26-ACME-0003",
    ]);
    expect([a1.series, a1.numbering]).toEqual(["F26", "customer"]);
  });

  it("customer numbering needs a customer: 400 parameter_missing customer", async () => {
    const { api } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      type: "simplified",
      numbering: "customer",
      lines: [ivaLine()],
    });
    expectError(res, 400, "parameter_missing", "customer");
  });

  it("counters are separate per series", async () => {
    const { api, customer } = await esIssuer();
    const a = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const b = await issue(api, { customer: customer.id, series: "B", lines: [ivaLine()] });
    const c = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const d = await issue(api, { customer: customer.id, series: "B", lines: [ivaLine()] });
    const s = await issue(api, { type: "simplified", lines: [ivaLine()] });
    expect(numbers([a, b, c, d, s])).toEqual(["INV-0001", "B-0001", "INV-0002", "B-0002", "SIM-0001"]);
  });

  it("counters are separate per environment: test and live each start at INV-0001", async () => {
    const { account, api, customer } = await esIssuer();
    const live = await readyLive(account);
    const liveCustomer = await customerWithAddress(live);
    const t1 = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const t2 = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const l1 = await issue(live, { customer: liveCustomer.id, lines: [ivaLine()] });
    const t3 = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const l2 = await issue(live, { customer: liveCustomer.id, lines: [ivaLine()] });
    expect(numbers([t1, t2, t3])).toEqual(["INV-0001", "INV-0002", "INV-0003"]);
    expect(numbers([l1, l2])).toEqual(["INV-0001", "INV-0002"]);
    expect([l1.live, t1.live]).toEqual([true, false]);
  });

  it("counters are separate per account", async () => {
    const one = await esIssuer();
    const two = await esIssuer();
    const a = await issue(one.api, { customer: one.customer.id, lines: [ivaLine()] });
    const b = await issue(two.api, { customer: two.customer.id, lines: [ivaLine()] });
    const c = await issue(one.api, { customer: one.customer.id, lines: [ivaLine()] });
    expect(numbers([a, b, c])).toEqual(["INV-0001", "INV-0001", "INV-0002"]);
  });

  it("20 concurrent issues into one series get 20 consecutive numbers: INV-0001..INV-0020, no gap, no duplicate", async () => {
    const { api, customer } = await esIssuer();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post("/v1/invoices", { customer: customer.id, lines: [ivaLine(String(i + 1))] }),
      ),
    );
    for (const res of responses) expect(res.status, res.text).toBe(201);
    const issued = responses.map((r) => r.body as Invoice);
    const expected = Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`);
    expect(numbers(issued).sort()).toEqual(expected);
    expect(new Set(issued.map((i) => i.id)).size).toBe(20);
    // The next one continues the sequence.
    const next = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(next.number).toBe("INV-0021");
    // And the list holds exactly these 21.
    const list = await api.get("/v1/invoices?limit=100");
    expect(((list.body as { data: Invoice[] }).data.map((i) => i.number) as string[]).sort()).toEqual([
      ...expected,
      "INV-0021",
    ]);
  });

  it("each invoice.issued event carries the number its invoice got, under concurrency too (number and payment reference)", async () => {
    const { api, customer } = await esIssuer();
    const pmi = await createInstruction(api);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post("/v1/invoices", {
          customer: customer.id,
          lines: [ivaLine()],
          payment_terms: { options: [pmi.id] },
        }),
      ),
    );
    for (const res of responses) expect(res.status, res.text).toBe(201);
    const issued = new Map(responses.map((r) => [(r.body as Invoice).id, r.body as Invoice]));
    const events = (await listEvents(api, "?type=invoice.issued&limit=100")).data;
    expect(events).toHaveLength(10);
    for (const event of events) {
      const object = event.data.object as Invoice;
      expect(object).toStrictEqual(issued.get(object.id));
      expect(object.payment_terms.options[0]?.reference).toBe(object.number);
    }
  });

  it("a rejected request consumes no number", async () => {
    const { api, customer } = await esIssuer();
    const noAddress = await api.post("/v1/customers", {
      name: "Sin Dirección SL",
      tax_id: { country: "ES", type: "es_nif", value: "B12345674" },
    });
    expect(noAddress.status, noAddress.text).toBe(201);
    const first = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    // A validation error, a catalog error, a business rule and a date rule: none takes a number.
    const rejected = [
      { customer: customer.id, lines: [{ ...ivaLine(), quantity: "0" }] },
      { customer: customer.id, lines: [ivaLine("100", "nope")] },
      { customer: (noAddress.body as Customer).id, lines: [ivaLine()] },
      { customer: customer.id, issue_date: "2020-01-01", lines: [ivaLine()] },
      {
        customer: customer.id,
        lines: [ivaLine()],
        payment_terms: { options: ["pmi_00000000000000000000000000"] },
      },
    ];
    for (const body of rejected) {
      const res = await api.post("/v1/invoices", body);
      expect(res.status, res.text).toBe(400);
    }
    const second = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(numbers([first, second])).toEqual(["INV-0001", "INV-0002"]);
  });

  it("numbers have at least 4 digits: after INV-9999 comes INV-10000", async () => {
    const { api, customer } = await esIssuer();
    const first = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    // Stands for 9,998 more issues: a copy of the first invoice as counter 9999.
    const columns = (
      await env.DB.prepare("SELECT name FROM pragma_table_info('invoices')").all<{ name: string }>()
    ).results
      .map((c) => c.name)
      .filter((c) => !["id", "counter", "number"].includes(c));
    await env.DB.prepare(
      `INSERT INTO invoices (id, counter, number, ${columns.join(", ")})
       SELECT ?, 9999, 'INV-9999', ${columns.join(", ")} FROM invoices WHERE id = ?`,
    )
      .bind(newId("invoice"), first.id)
      .run();
    const next = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(next.number).toBe("INV-10000");
  });
});

describe("A series holds one invoice type and one numbering mode: else 400 series_mismatch, param series", () => {
  it("a simplified invoice in a series of ordinary invoices is 400 series_mismatch", async () => {
    const { api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, series: "A", lines: [ivaLine()] });
    const res = await api.post("/v1/invoices", { type: "simplified", series: "A", lines: [ivaLine()] });
    expectError(res, 400, "series_mismatch", "series");
    // The default series are bound too: INV holds ordinary invoices.
    const inv = await api.post("/v1/invoices", { type: "simplified", series: "INV", lines: [ivaLine()] });
    expect(inv.status, inv.text).toBe(201);
    const mismatch = await api.post("/v1/invoices", {
      customer: customer.id,
      series: "INV",
      lines: [ivaLine()],
    });
    expectError(mismatch, 400, "series_mismatch", "series");
  });

  it("a corrective invoice in a series of ordinary invoices is 400 series_mismatch (correctives keep their own series)", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      series: "INV",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "series_mismatch", "series");
  });

  it("series numbering in a series of customer-numbered invoices is 400 series_mismatch, and the reverse", async () => {
    const { api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, series: "C", numbering: "customer", lines: [ivaLine()] });
    await issue(api, { customer: customer.id, series: "S", lines: [ivaLine()] });
    const a = await api.post("/v1/invoices", { customer: customer.id, series: "C", lines: [ivaLine()] });
    expectError(a, 400, "series_mismatch", "series");
    const b = await api.post("/v1/invoices", {
      customer: customer.id,
      series: "S",
      numbering: "customer",
      lines: [ivaLine()],
    });
    expectError(b, 400, "series_mismatch", "series");
  });

  it("the mismatch rejected consumes no number of either series", async () => {
    const { api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, series: "A", lines: [ivaLine()] });
    expectError(
      await api.post("/v1/invoices", { type: "simplified", series: "A", lines: [ivaLine()] }),
      400,
      "series_mismatch",
      "series",
    );
    const next = await issue(api, { customer: customer.id, series: "A", lines: [ivaLine()] });
    expect(next.number).toBe("A-0002");
  });
});

describe("Within one counter issue_date never goes backwards: 400 issue_date_out_of_order, param issue_date", () => {
  it("an issue_date before the last number's is 400; the same date and later dates are accepted", async () => {
    const { api, customer } = await esIssuer();
    const first = await issue(api, { customer: customer.id, issue_date: "2026-11-20", lines: [ivaLine()] });
    const res = await api.post("/v1/invoices", {
      customer: customer.id,
      issue_date: "2026-11-19",
      lines: [ivaLine()],
    });
    expectError(res, 400, "issue_date_out_of_order", "issue_date");
    const same = await issue(api, { customer: customer.id, issue_date: "2026-11-20", lines: [ivaLine()] });
    const later = await issue(api, { customer: customer.id, issue_date: "2026-11-21", lines: [ivaLine()] });
    expect(numbers([first, same, later])).toEqual(["INV-0001", "INV-0002", "INV-0003"]);
    const back = await api.post("/v1/invoices", {
      customer: customer.id,
      issue_date: "2026-11-20",
      lines: [ivaLine()],
    });
    expectError(back, 400, "issue_date_out_of_order", "issue_date");
  });

  it("concurrent issues with earlier and later dates never leave the counter's dates out of order", async () => {
    const { api, customer } = await esIssuer();
    const dates = Array.from(
      { length: 12 },
      (_, i) => `2026-11-${String(10 + (i % 2 ? i : 12 - i)).padStart(2, "0")}`,
    );
    const responses = await Promise.all(
      dates.map((issue_date) =>
        api.post("/v1/invoices", { customer: customer.id, issue_date, lines: [ivaLine()] }),
      ),
    );
    for (const res of responses) {
      if (res.status !== 201) expectError(res, 400, "issue_date_out_of_order", "issue_date");
    }
    const issued = responses.filter((r) => r.status === 201).map((r) => r.body as Invoice);
    expect(issued.length).toBeGreaterThan(0);
    const byNumber = issued.sort((a, b) => String(a.number).localeCompare(String(b.number)));
    expect(numbers(byNumber)).toEqual(byNumber.map((_, i) => `INV-${String(i + 1).padStart(4, "0")}`));
    const issueDates = byNumber.map((i) => i.issue_date);
    expect(issueDates).toEqual([...issueDates].sort());
  });

  it("the database refuses an insert dated before its counter's last invoice (the guard behind the read)", async () => {
    const { api, customer } = await esIssuer();
    const first = await issue(api, { customer: customer.id, issue_date: "2026-11-20", lines: [ivaLine()] });
    const insert = env.DB.prepare(
      `INSERT INTO invoices (id, counter, number, issue_date, account_id, live, type, series, numbering, counter_key,
         supply_tax_date, withholding_tax_date, currency, customer_id, issuer, customer, lines, tax_breakdown,
         subtotal, total_tax_added, total_tax_withheld, total, amount_payable, payment_terms, created_at)
       SELECT ?, 2, 'INV-0002', ?, account_id, live, type, series, numbering, counter_key,
         supply_tax_date, withholding_tax_date, currency, customer_id, issuer, customer, lines, tax_breakdown,
         subtotal, total_tax_added, total_tax_withheld, total, amount_payable, payment_terms, created_at
       FROM invoices WHERE id = ?`,
    );
    await expect(insert.bind(newId("invoice"), "2026-11-19", first.id).run()).rejects.toThrow(
      /issue_date_out_of_order/,
    );
    await insert.bind(newId("invoice"), "2026-11-20", first.id).run();
  });

  it("the default issue_date (today) after a back-dated invoice is in order", async () => {
    const { api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, issue_date: "2024-10-28", lines: [ivaLine()] });
    const today = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(today.number).toBe("INV-0002");
  });

  it("another counter is not constrained: another series, or another customer under customer numbering", async () => {
    const { api, customer } = await esIssuer();
    const other = await customerWithAddress(api, { invoice_prefix: "OTRO" });
    await issue(api, { customer: customer.id, issue_date: "2026-11-20", lines: [ivaLine()] });
    const b = await issue(api, {
      customer: customer.id,
      series: "B",
      issue_date: "2026-11-01",
      lines: [ivaLine()],
    });
    expect(b.number).toBe("B-0001");
    await issue(api, {
      customer: customer.id,
      series: "F",
      numbering: "customer",
      issue_date: "2026-11-20",
      lines: [ivaLine()],
    });
    const earlier = await issue(api, {
      customer: other.id,
      series: "F",
      numbering: "customer",
      issue_date: "2026-11-10",
      lines: [ivaLine()],
    });
    expect(earlier.number).toBe("F-OTRO-0001");
    const sameCounter = await api.post("/v1/invoices", {
      customer: other.id,
      series: "F",
      numbering: "customer",
      issue_date: "2026-11-09",
      lines: [ivaLine()],
    });
    expectError(sameCounter, 400, "issue_date_out_of_order", "issue_date");
  });

  it("another environment's counter is not constrained", async () => {
    const { account, api, customer } = await esIssuer();
    await issue(api, { customer: customer.id, issue_date: "2026-11-20", lines: [ivaLine()] });
    const live = await readyLive(account);
    const liveCustomer = await customerWithAddress(live);
    const inv = await issue(live, {
      customer: liveCustomer.id,
      issue_date: "2026-01-01",
      lines: [ivaLine()],
    });
    expect(inv.number).toBe("INV-0001");
  });
});

describe("Series: 1–20 of A-Z0-9, uppercased", () => {
  it("a lowercase series is uppercased, in the series and in the number", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, series: "f2026a", lines: [ivaLine()] });
    expect([inv.series, inv.number]).toEqual(["F2026A", "F2026A-0001"]);
    // "F2026A" and "f2026a" are one series.
    const next = await issue(api, { customer: customer.id, series: "F2026A", lines: [ivaLine()] });
    expect(next.number).toBe("F2026A-0002");
  });

  it("1 and 20 characters are accepted", async () => {
    const { api, customer } = await esIssuer();
    const one = await issue(api, { customer: customer.id, series: "Z", lines: [ivaLine()] });
    const twenty = await issue(api, { customer: customer.id, series: "A".repeat(20), lines: [ivaLine()] });
    expect([one.number, twenty.number]).toEqual(["Z-0001", `${"A".repeat(20)}-0001`]);
  });

  it.each([
    ["a hyphen (the joiner)", "A-B"],
    ["an empty series", ""],
    ["21 characters", "A".repeat(21)],
    ["a space", "A B"],
    ["an underscore", "A_B"],
    ["a non-ASCII letter that uppercases to ASCII", "ſ"],
    ["an accented letter", "Á"],
  ])("a series with %s is 400 parameter_invalid series", async (_, series) => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", { customer: customer.id, series, lines: [ivaLine()] });
    expectError(res, 400, "parameter_invalid", "series");
  });

  it("a series that is not a string is 400 parameter_invalid series", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", { customer: customer.id, series: 2026, lines: [ivaLine()] });
    expectError(res, 400, "parameter_invalid", "series");
  });
});
