/**
 * customers.md, "E-invoicing": a customer's `einvoicing` (Peppol id, DIR3 codes) on create,
 * update and retrieve; each rule's 400 with its `param`, and nothing written; the snapshot an
 * invoice takes at issuance, which a later change of the customer does not alter.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { createAccount, type TestAccount, validCustomer } from "../../helpers/factories";
import { esIssuer, getInvoice, issue, ivaLine } from "../../helpers/invoices";
import { expectError } from "../../helpers/security";

const NONE = { peppol_id: null, dir3: null };
const DIR3 = { accounting_office: "L01280796", managing_body: "L01280796", processing_unit: "GE0000531" };
const FULL = { peppol_id: "9920:ESB12345674", dir3: { ...DIR3, proposing_body: null } };

describe("einvoicing on customers", () => {
  let account: TestAccount;
  let api: ApiClient;
  beforeAll(async () => {
    account = await createAccount();
    api = client(account.testKey);
  });

  async function create(einvoicing?: unknown) {
    const res = await api.post("/v1/customers", {
      ...validCustomer,
      ...(einvoicing !== undefined && { einvoicing }),
    });
    expectStatus(res, 201);
    expect((await api.get(`/v1/customers/${res.body.id}`)).body).toEqual(res.body);
    return res.body;
  }

  async function patch(id: string, body: unknown) {
    const res = await api.patch(`/v1/customers/${id}`, body);
    expectStatus(res, 200);
    expect((await api.get(`/v1/customers/${id}`)).body).toEqual(res.body);
    return res.body;
  }

  /** Refused with this `param`, and the customer reads back as before. */
  async function refusedPatch(id: string, body: unknown, param: string) {
    const before = (await api.get(`/v1/customers/${id}`)).body;
    const res = await api.patch(`/v1/customers/${id}`, body);
    expectError(res, 400, "parameter_invalid", param);
    expect(res.headers.get("D1-Rows-Written")).toBe("0");
    expect((await api.get(`/v1/customers/${id}`)).body).toEqual(before);
  }

  describe("defaults", () => {
    it("a customer created without einvoicing has none: both fields null", async () => {
      expect((await create()).einvoicing).toEqual(NONE);
    });

    it("einvoicing: null is none", async () => {
      expect((await create(null)).einvoicing).toEqual(NONE);
    });

    it("the customers list shows it too", async () => {
      const c = await create({ peppol_id: "0088:5790000435968" });
      const res = await api.get(`/v1/customers?q=${c.id}`);
      expectStatus(res, 200);
      expect(res.body.data[0]?.einvoicing).toEqual({ peppol_id: "0088:5790000435968", dir3: null });
    });
  });

  describe("peppol_id", () => {
    it("a scheme of the Peppol EAS code list and an id are stored as sent", async () => {
      for (const id of ["9920:ESB12345674", "0088:5790000435968", "0204:99661-WEBSERVICEOZG-28"]) {
        expect((await create({ peppol_id: id })).einvoicing).toEqual({ peppol_id: id, dir3: null });
      }
    });

    it("a scheme outside the EAS code list is 400 on einvoicing.peppol_id, nothing written", async () => {
      const c = await create();
      for (const id of ["9999:ESB12345674", "0001:123", "ES:B12345674", "99201:X"]) {
        await refusedPatch(c.id, { einvoicing: { peppol_id: id } }, "einvoicing.peppol_id");
      }
    });

    it("an empty id, an id with spaces or non-ASCII, or an id over 130 characters is 400", async () => {
      const c = await create();
      for (const id of ["9920:", "9920", "9920:ESB 12345674", "9920:ESÑ1", `9920:${"1".repeat(131)}`]) {
        await refusedPatch(c.id, { einvoicing: { peppol_id: id } }, "einvoicing.peppol_id");
      }
      expect(
        (await patch(c.id, { einvoicing: { peppol_id: `9920:${"1".repeat(130)}` } })).einvoicing.peppol_id,
      ).toHaveLength(135);
    });

    it("a refused create writes nothing", async () => {
      const res = await api.post("/v1/customers", { ...validCustomer, einvoicing: { peppol_id: "1234:X" } });
      expectError(res, 400, "parameter_invalid", "einvoicing.peppol_id");
      expect(res.headers.get("D1-Rows-Written")).toBe("0");
    });
  });

  describe("dir3", () => {
    it("the three codes together; proposing_body optional, null when absent", async () => {
      expect((await create({ dir3: DIR3 })).einvoicing).toEqual({ peppol_id: null, dir3: FULL.dir3 });
      const withProposing = { ...DIR3, proposing_body: "E04921501" };
      expect((await create({ dir3: withProposing })).einvoicing.dir3).toEqual(withProposing);
    });

    it("one or two of the three codes (or none inside the object) is 400 on einvoicing.dir3", async () => {
      const c = await create();
      const { processing_unit: _, ...two } = DIR3;
      for (const dir3 of [two, { accounting_office: "L01280796" }, {}, { proposing_body: "E04921501" }]) {
        await refusedPatch(c.id, { einvoicing: { dir3 } }, "einvoicing.dir3");
      }
    });

    it("a code that is not 9 characters A–Z and 0–9 is 400 on that code", async () => {
      const c = await create();
      for (const bad of ["L0128079", "L012807960", "l01280796", "L01-80796", ""]) {
        for (const field of ["accounting_office", "managing_body", "processing_unit", "proposing_body"]) {
          await refusedPatch(
            c.id,
            { einvoicing: { dir3: { ...DIR3, [field]: bad } } },
            `einvoicing.dir3.${field}`,
          );
        }
      }
    });
  });

  describe("update", () => {
    it("a field omitted from einvoicing stays; null clears that field only", async () => {
      const c = await create(FULL);
      expect((await patch(c.id, { einvoicing: { peppol_id: "0088:5790000435968" } })).einvoicing).toEqual({
        ...FULL,
        peppol_id: "0088:5790000435968",
      });
      expect((await patch(c.id, { einvoicing: { dir3: null } })).einvoicing).toEqual({
        peppol_id: "0088:5790000435968",
        dir3: null,
      });
      expect((await patch(c.id, { name: "Renamed" })).einvoicing.peppol_id).toBe("0088:5790000435968");
    });

    it("dir3 is replaced whole", async () => {
      const c = await create({ dir3: { ...DIR3, proposing_body: "E04921501" } });
      expect((await patch(c.id, { einvoicing: { dir3: DIR3 } })).einvoicing.dir3).toEqual(FULL.dir3);
    });

    it("the customer.updated and customer.deleted events carry it as the row holds it", async () => {
      const c = await create(FULL);
      const updated = await patch(c.id, { einvoicing: { peppol_id: null } });
      expectStatus(await api.del(`/v1/customers/${c.id}`), 204);
      const res = await api.get(`/v1/events?related_object=${c.id}`);
      expectStatus(res, 200);
      const objects = Object.fromEntries(
        res.body.data.map((e) => [e.type, (e.data.object as { einvoicing: unknown }).einvoicing]),
      );
      expect(objects).toEqual({
        "customer.created": FULL,
        "customer.updated": updated.einvoicing,
        "customer.deleted": { peppol_id: null, dir3: FULL.dir3 },
      });
    });

    it("einvoicing: null clears both", async () => {
      const c = await create(FULL);
      expect((await patch(c.id, { einvoicing: null })).einvoicing).toEqual(NONE);
    });
  });
});

describe("the customer's einvoicing on an invoice", () => {
  it("is snapshotted at issuance; a later change of the customer leaves the invoice as issued", async () => {
    const { api, customer } = await esIssuer({ einvoicing: FULL });
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(invoice.customer?.einvoicing).toEqual(FULL);

    const res = await api.patch(`/v1/customers/${customer.id}`, {
      einvoicing: { peppol_id: "0088:5790000435968", dir3: null },
    });
    expectStatus(res, 200);
    expect((await getInvoice(api, invoice.id)).customer?.einvoicing).toEqual(FULL);
    // The next invoice takes the customer as it is then.
    const next = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(next.customer?.einvoicing).toEqual({ peppol_id: "0088:5790000435968", dir3: null });
  });

  it("a customer without einvoicing is snapshotted with both fields null", async () => {
    const { api, customer } = await esIssuer();
    const invoice = await issue(api, { customer: customer.id, lines: [ivaLine()] });
    expect(invoice.customer?.einvoicing).toEqual(NONE);
  });
});
