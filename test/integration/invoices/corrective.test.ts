/**
 * invoices.md "Corrections" and "Events": a corrective invoice names the invoice it corrects
 * and why, is issued to that invoice's customer on that invoice's tax dates, and the corrected
 * invoice gains the corrective's id in `corrected_by` (its only field that ever changes), with
 * `invoice.amended` recorded for it.
 */
import { describe, expect, it } from "vitest";
import { type ApiClient, expectStatus } from "../../helpers/api";
import { createInstruction } from "../../helpers/factories";
import {
  customerWithAddress,
  esIssuer,
  getInvoice,
  type Invoice,
  issue,
  ivaLine,
  workedLine,
} from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { dbSnapshot, expectError } from "../../helpers/security";
import type { Event, List } from "../../helpers/types";

/** The worked line with a negative price: −100.00 before taxes. */
const refundLine = { ...workedLine, unit_price: "-33.333" };

async function events(api: ApiClient, type: string): Promise<Event[]> {
  const res = await api.get(`/v1/events?type=${type}`);
  expectStatus(res, 200);
  return (res.body as List<Event>).data;
}

describe("A corrective invoice: type corrective with corrects {invoice, reason}", () => {
  it("corrects an ordinary invoice with R1: series COR, the corrected invoice's customer, lines carrying the differences", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, {
      customer: customer.id,
      issue_date: "2026-11-20",
      lines: [workedLine],
    });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [refundLine],
      notes: "Abono de la factura INV-0001",
    });
    expect(res.status, res.text).toBe(201);
    const corrective = res.body as Invoice;
    expect({
      type: corrective.type,
      number: corrective.number,
      series: corrective.series,
      corrects: corrective.corrects,
      corrected_by: corrective.corrected_by,
      customer: corrective.customer,
      issuer: corrective.issuer,
      subtotal: corrective.subtotal,
      total_tax_added: corrective.total_tax_added,
      total_tax_withheld: corrective.total_tax_withheld,
      total: corrective.total,
      amount_payable: corrective.amount_payable,
      payment_terms: corrective.payment_terms,
    }).toEqual({
      type: "corrective",
      number: "COR-0001",
      series: "COR",
      corrects: { invoice: original.id, reason: "R1" },
      corrected_by: [],
      customer: original.customer,
      issuer: original.issuer,
      // 3 × −33.333 = −99.999 → −100.00; IVA 21 % −21.00; IRPF 15 % −15.00.
      subtotal: "-100.00",
      total_tax_added: "-21.00",
      total_tax_withheld: "-15.00",
      total: "-121.00",
      amount_payable: "-106.00",
      payment_terms: { due_date: null, options: [] },
    });
    expect(await getInvoice(api, corrective.id)).toStrictEqual(corrective);
  });

  it.each(["R1", "R2", "R3", "R4"])("an ordinary invoice is corrected with reason %s", async (reason) => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason },
      lines: [ivaLine("-10")],
    });
    expect(corrective.corrects).toEqual({ invoice: original.id, reason });
  });

  it("R5 corrects an ordinary invoice: 400 parameter_invalid corrects.reason", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R5" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "parameter_invalid", "corrects.reason");
  });

  it("a simplified invoice is corrected with R5 exactly; its corrective has no customer when it had none", async () => {
    const { api } = await esIssuer();
    const original = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R5" },
      lines: [ivaLine("-10")],
    });
    expect([corrective.corrects, corrective.customer]).toEqual([
      { invoice: original.id, reason: "R5" },
      null,
    ]);
  });

  it.each(["R1", "R2", "R3", "R4"])(
    "a simplified invoice corrected with %s is 400 corrects.reason",
    async (reason) => {
      const { api } = await esIssuer();
      const original = await issue(api, { type: "simplified", lines: [ivaLine()] });
      const res = await api.post("/v1/invoices", {
        type: "corrective",
        corrects: { invoice: original.id, reason },
        lines: [ivaLine("-10")],
      });
      expectError(res, 400, "parameter_invalid", "corrects.reason");
    },
  );

  it("a simplified invoice with a customer passes its customer to its corrective", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { type: "simplified", customer: customer.id, lines: [ivaLine()] });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R5" },
      lines: [ivaLine("-10")],
    });
    expect(corrective.customer).toEqual(original.customer);
  });
});

describe("corrects.invoice must be an issued invoice of the same account and environment", () => {
  it("an unknown invoice is 400 parameter_invalid corrects.invoice", async () => {
    const { api } = await esIssuer();
    for (const invoice of ["inv_00000000000000000000000000", "nope"]) {
      const res = await api.post("/v1/invoices", {
        type: "corrective",
        corrects: { invoice, reason: "R1" },
        lines: [ivaLine("-10")],
      });
      expectError(res, 400, "parameter_invalid", "corrects.invoice");
    }
  });

  it("another environment's invoice is 400 corrects.invoice, and it is not amended", async () => {
    const { account, api, customer } = await esIssuer();
    const testInvoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const live = await readyLive(account);
    const res = await live.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: testInvoice.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "parameter_invalid", "corrects.invoice");
    expect(await getInvoice(api, testInvoice.id)).toStrictEqual(testInvoice);
  });

  it("another account's invoice is 400 corrects.invoice, and it is not amended", async () => {
    const owner = await esIssuer();
    const theirs = await issue(owner.api, { customer: owner.customer.id, lines: [ivaLine()] });
    const { api } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: theirs.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "parameter_invalid", "corrects.invoice");
    expect(await getInvoice(owner.api, theirs.id)).toStrictEqual(theirs);
  });
});

describe("The corrective's customer is the corrected invoice's", () => {
  it("naming the same customer is accepted", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const corrective = await issue(api, {
      type: "corrective",
      customer: customer.id,
      corrects: { invoice: original.id, reason: "R2" },
      lines: [ivaLine("-10")],
    });
    expect(corrective.customer?.id).toBe(customer.id);
  });

  it("another customer (or null when the original had one) is 400 parameter_invalid customer", async () => {
    const { api, customer } = await esIssuer();
    const other = await customerWithAddress(api);
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    for (const named of [other.id, null]) {
      const res = await api.post("/v1/invoices", {
        type: "corrective",
        customer: named,
        corrects: { invoice: original.id, reason: "R1" },
        lines: [ivaLine("-10")],
      });
      expectError(res, 400, "parameter_invalid", "customer");
    }
  });

  it("a customer on the corrective of a simplified invoice without one is 400 customer", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { type: "simplified", lines: [ivaLine()] });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      customer: customer.id,
      corrects: { invoice: original.id, reason: "R5" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "parameter_invalid", "customer");
  });

  it("the corrective snapshots the customer as it is now, not as the original did", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expectStatus(await api.patch(`/v1/customers/${customer.id}`, { name: "Cliente Renombrado SA" }), 200);
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    expect([original.customer?.name, corrective.customer?.name]).toEqual([
      "Cliente Ejemplo SA",
      "Cliente Renombrado SA",
    ]);
  });
});

describe("A corrective resolves every tax on the dates the corrected invoice used", () => {
  // An es issue_date is never before 2024-10-28 (issue_date_before_verifactu): an old IVA
  // version is reached through the corrected invoice's operation_date.
  it("correcting an invoice whose operation was on 2012-08-31 keeps IVA 18 %", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, {
      customer: customer.id,
      issue_date: "2024-10-28",
      operation_date: "2012-08-31",
      lines: [workedLine],
    });
    expect(original.tax_breakdown.map((r) => [r.tax, r.rate])).toEqual([
      ["iva", "18%"],
      ["irpf", "15%"],
    ]);
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [refundLine],
    });
    // Today IVA general is 21 %: the corrective does not apply it.
    expect(corrective.tax_breakdown.map((r) => [r.tax, r.rate, r.base, r.amount])).toEqual([
      ["iva", "18%", "-100.00", "-18.00"],
      ["irpf", "15%", "-100.00", "-15.00"],
    ]);
    expect([corrective.total, corrective.amount_payable]).toEqual(["-118.00", "-103.00"]);
    expect(corrective.issue_date).not.toBe("2024-10-28");
  });

  it("correcting an invoice of 2024-12-31 at a temporary rate keeps it after the rate ended", async () => {
    const { api, customer } = await esIssuer();
    const food = (price: string) => ({
      ...ivaLine(price),
      taxes: [{ tax: "iva", rule: "food_basic_temporary" }],
    });
    const original = await issue(api, {
      customer: customer.id,
      issue_date: "2024-12-31",
      lines: [food("100")],
    });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [food("-100")],
    });
    expect(corrective.tax_breakdown.map((r) => [r.rate, r.amount])).toEqual([["2%", "-2.00"]]);
  });

  it("a rule not in force on the corrected invoice's dates is 400 on its .rule, even if in force today", async () => {
    const { api, customer } = await esIssuer();
    // recargo/general starts on 2010-07-01 in the catalog; the operation was in 2009.
    const original = await issue(api, {
      customer: customer.id,
      issue_date: "2024-10-28",
      operation_date: "2009-06-30",
      lines: [ivaLine()],
    });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [
        {
          ...ivaLine("-10"),
          taxes: [
            { tax: "iva", rule: "general" },
            { tax: "recargo_equivalencia", rule: "general" },
          ],
        },
      ],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.taxes.1.rule");
  });
});

describe("The corrected invoice gains corrected_by, its only change", () => {
  it("corrected_by lists the correctives in order; every other byte of the invoice is unchanged", async () => {
    const { api, customer } = await esIssuer();
    const pmi = await createInstruction(api);
    const original = await issue(api, {
      customer: customer.id,
      lines: [workedLine],
      payment_terms: { due_date: "2026-12-31", options: [pmi.id] },
      notes: "Original",
    });
    const before = await api.get(`/v1/invoices/${original.id}`);
    expectStatus(before, 200);
    const c1 = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [ivaLine("-10")],
    });
    const afterOne = await api.get(`/v1/invoices/${original.id}`);
    expect(afterOne.text).toBe(before.text.replace('"corrected_by":[]', `"corrected_by":["${c1.id}"]`));
    const c2 = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R3" },
      lines: [ivaLine("-5")],
    });
    const afterTwo = await api.get(`/v1/invoices/${original.id}`);
    expect(afterTwo.text).toBe(
      before.text.replace('"corrected_by":[]', `"corrected_by":["${c1.id}","${c2.id}"]`),
    );
    expect((afterTwo.body as Invoice).corrected_by).toEqual([c1.id, c2.id]);
  });

  it("concurrent correctives of one invoice: corrected_by lists them all, and each invoice.amended shows those committed before it", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const correctives = await Promise.all(
      Array.from({ length: 5 }, (_, k) =>
        issue(api, {
          type: "corrective",
          corrects: { invoice: original.id, reason: "R1" },
          lines: [ivaLine(`-${k + 1}`)],
        }),
      ),
    );
    const final = (await getInvoice(api, original.id)).corrected_by;
    expect([...final].sort()).toEqual(correctives.map((c) => c.id).sort());

    const amended = await events(api, "invoice.amended");
    expect(amended).toHaveLength(5);
    // Each event's list is the corrected invoice's list right after its own corrective: a
    // prefix of the final list ending with that corrective, one event per length.
    const lists = amended.map((e) => (e.data.object as Invoice).corrected_by);
    expect(lists.map((l) => l.length).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const list of lists) expect(list).toEqual(final.slice(0, list.length));
  });

  it("a rejected corrective leaves the corrected invoice untouched and writes nothing", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const before = await dbSnapshot();
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R5" },
      lines: [ivaLine("-10")],
    });
    expectError(res, 400, "parameter_invalid", "corrects.reason");
    expect(await dbSnapshot()).toBe(before);
    expect(await getInvoice(api, original.id)).toStrictEqual(original);
  });
});

describe("Events: invoice.issued for the new invoice, invoice.amended for the corrected one", () => {
  it("issuing records invoice.issued with the new invoice as related object and data", async () => {
    const { api, customer } = await esIssuer();
    const inv = await issue(api, { customer: customer.id, lines: [workedLine] });
    const issued = await events(api, "invoice.issued");
    expect(issued).toHaveLength(1);
    expect(issued[0]).toStrictEqual({
      id: expect.stringMatching(/^evt_/),
      object: "event",
      type: "invoice.issued",
      live: false,
      created_at: expect.any(String),
      data: { object: inv },
      related_object: { id: inv.id, type: "invoice", url: `/v1/invoices/${inv.id}` },
    });
  });

  it("a corrective records invoice.issued (the corrective) and invoice.amended (the corrected invoice with corrected_by)", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [workedLine] });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [refundLine],
    });
    const amendedNow = await getInvoice(api, original.id);

    const issued = await events(api, "invoice.issued");
    expect(issued.map((e) => e.related_object)).toEqual([
      { id: corrective.id, type: "invoice", url: `/v1/invoices/${corrective.id}` },
      { id: original.id, type: "invoice", url: `/v1/invoices/${original.id}` },
    ]);
    expect(issued[0]?.data.object).toStrictEqual(corrective);

    const amended = await events(api, "invoice.amended");
    expect(amended).toHaveLength(1);
    expect(amended[0]).toMatchObject({
      type: "invoice.amended",
      live: false,
      related_object: { id: original.id, type: "invoice", url: `/v1/invoices/${original.id}` },
    });
    const event = amended[0]!;
    expect(event.data.object).toStrictEqual(amendedNow);
    expect((event.data.object as Invoice).corrected_by).toEqual([corrective.id]);
    // The events are retrievable one by one too.
    const one = await api.get(`/v1/events/${event.id}`);
    expectStatus(one, 200);
    expect(one.body).toStrictEqual(event);
  });

  it("GET /v1/events?related_object=<invoice id> lists everything that happened to one invoice", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [workedLine] });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [refundLine],
    });
    const res = await api.get(`/v1/events?related_object=${original.id}`);
    expectStatus(res, 200);
    const page = res.body as List<Event>;
    expect(page.data.map((e) => [e.type, e.related_object.id])).toEqual([
      ["invoice.amended", original.id],
      ["invoice.issued", original.id],
    ]);
    const ofCorrective = await api.get(`/v1/events?related_object=${corrective.id}`);
    expectStatus(ofCorrective, 200);
    expect((ofCorrective.body as List<Event>).data.map((e) => e.type)).toEqual(["invoice.issued"]);
  });

  it("a rejected issuance records no event", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R1" },
      lines: [ivaLine("-10", "nope")],
    });
    expectError(res, 400, "parameter_invalid", "lines.0.taxes.0.rule");
    expect((await events(api, "invoice.issued")).map((e) => e.related_object.id)).toEqual([original.id]);
    expect(await events(api, "invoice.amended")).toEqual([]);
  });
});

describe("corrects belongs to corrective invoices only", () => {
  it("corrects on an ordinary or simplified invoice is 400 parameter_invalid corrects", async () => {
    const { api, customer } = await esIssuer();
    const original = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    for (const body of [
      { customer: customer.id, lines: [ivaLine()] },
      { type: "simplified", lines: [ivaLine()] },
    ]) {
      const res = await api.post("/v1/invoices", {
        ...body,
        corrects: { invoice: original.id, reason: "R1" },
      });
      expectError(res, 400, "parameter_invalid", "corrects");
    }
    expect((await getInvoice(api, original.id)).corrected_by).toEqual([]);
  });

  it("a corrective invoice without corrects is 400 parameter_missing corrects", async () => {
    const { api, customer } = await esIssuer();
    const res = await api.post("/v1/invoices", {
      type: "corrective",
      customer: customer.id,
      lines: [ivaLine("-1")],
    });
    expectError(res, 400, "parameter_missing", "corrects");
  });
});
