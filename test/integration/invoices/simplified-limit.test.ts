/**
 * invoices.md and spain-verifactu.md: a Spanish simplified invoice totals at most its
 * environment's `simplified_invoices.limit` (account.md); beyond it, 400
 * simplified_limit_exceeded on lines. Correctives are never refused by it; drafts skip it.
 */
import { describe, expect, it } from "vitest";
import { type ApiClient, client, expectStatus } from "../../helpers/api";
import { countRows } from "../../helpers/db";
import { createAccount } from "../../helpers/factories";
import { esIssuer, getInvoice, type Invoice, issue, ivaLine } from "../../helpers/invoices";
import { readyLive } from "../../helpers/live-ready";
import { expectError } from "../../helpers/security";

// 330.58 + 21 % (69.4218 → 69.42) = 400.00; 330.59 + 21 % (69.4239 → 69.42) = 400.01.
const AT_400 = [ivaLine("330.58")];
const OVER_400 = [ivaLine("330.59")];
// 2479.34 + 21 % (520.6614 → 520.66) = 3000.00; 2479.35 + 21 % (520.6635 → 520.66) = 3000.01.
const AT_3000 = [ivaLine("2479.34")];
const OVER_3000 = [ivaLine("2479.35")];

async function setLimit(api: ApiClient, value: unknown) {
  expectStatus(await api.patch("/v1/account", { simplified_invoices: value }), 200);
}

const refused = (res: Awaited<ReturnType<ApiClient["post"]>>) =>
  expectError(res, 400, "simplified_limit_exceeded", "lines");

describe("The simplified-invoice limit at issuance", () => {
  it("the 400.00 default refuses 400.01 and accepts 400.00", async () => {
    const { api } = await esIssuer();
    refused(await api.post("/v1/invoices", { type: "simplified", lines: OVER_400 }));
    refused(
      await api.post("/v1/invoices", { type: "simplified", lines: [ivaLine("400.01", "exempt_art_20")] }),
    );
    const inv = await issue(api, { type: "simplified", lines: AT_400 });
    expect([inv.total, inv.number]).toEqual(["400.00", "SIM-0001"]);
  });

  it("the limit is on the total: IRPF withheld does not bring an over-limit invoice under it", async () => {
    const { api } = await esIssuer();
    // 400.00 + 84.00 IVA = 484.00 total; 424.00 payable after 15 % IRPF.
    const res = await api.post("/v1/invoices", {
      type: "simplified",
      lines: [
        {
          ...ivaLine("400"),
          taxes: [
            { tax: "iva", rule: "general" },
            { tax: "irpf", rule: "professional" },
          ],
        },
      ],
    });
    refused(res);
  });

  it("3000.00 with art_4_2 accepts 3000.00 and refuses 3000.01", async () => {
    const { api } = await esIssuer();
    await setLimit(api, { limit: "3000.00", basis: "art_4_2" });
    expect((await issue(api, { type: "simplified", lines: AT_3000 })).total).toBe("3000.00");
    refused(await api.post("/v1/invoices", { type: "simplified", lines: OVER_3000 }));
  });

  it("3000.00 with aeat_authorisation (and its reference) accepts 3000.00", async () => {
    const { api } = await esIssuer();
    await setLimit(api, { limit: "3000.00", basis: "aeat_authorisation", reference: "AEAT 2026/1" });
    expect((await issue(api, { type: "simplified", lines: AT_3000 })).total).toBe("3000.00");
  });

  it("null resets to 400.00: what 3000.00 accepted is refused again", async () => {
    const { api } = await esIssuer();
    await setLimit(api, { limit: "3000.00", basis: "art_4_2" });
    await setLimit(api, null);
    refused(await api.post("/v1/invoices", { type: "simplified", lines: OVER_400 }));
  });

  it("the limit is per environment: 3000.00 in test leaves live at 400.00", async () => {
    const { account, api } = await esIssuer();
    await setLimit(api, { limit: "3000.00", basis: "art_4_2" });
    const live = await readyLive(account);
    refused(await live.post("/v1/invoices", { type: "simplified", lines: OVER_400 }));
    expect((await issue(api, { type: "simplified", lines: OVER_400 })).total).toBe("400.01");
  });

  it("a refusal writes nothing: no invoice, no number taken", async () => {
    const { account, api } = await esIssuer();
    const before = await countRows("invoices", account.id);
    const events = await countRows("events", account.id);
    refused(await api.post("/v1/invoices", { type: "simplified", lines: OVER_400 }));
    expect(await countRows("invoices", account.id)).toBe(before);
    expect(await countRows("events", account.id)).toBe(events);
    expect((await issue(api, { type: "simplified", lines: AT_400 })).number).toBe("SIM-0001");
  });

  it("a corrective of a simplified invoice is never refused by the limit", async () => {
    const { api } = await esIssuer();
    const original = await issue(api, { type: "simplified", lines: AT_400 });
    const corrective = await issue(api, {
      type: "corrective",
      corrects: { invoice: original.id, reason: "R5" },
      lines: OVER_3000,
    });
    expect([corrective.type, corrective.total]).toEqual(["corrective", "3000.01"]);
  });

  it("a draft over the limit is created; its finalize is refused with simplified_limit_exceeded and leaves it a draft", async () => {
    const { api } = await esIssuer();
    const res = await api.post("/v1/invoices", { draft: true, type: "simplified", lines: OVER_400 });
    expectStatus(res, 201);
    const draft = res.body as Invoice;
    expect([draft.status, draft.total]).toEqual(["draft", "400.01"]);
    refused(await api.post(`/v1/invoices/${draft.id}/finalize`));
    expect(await getInvoice(api, draft.id)).toEqual(draft);
    // Raising the limit lets the same draft be issued.
    await setLimit(api, { limit: "3000.00", basis: "art_4_2" });
    const issued = await api.post(`/v1/invoices/${draft.id}/finalize`);
    expectStatus(issued, 200);
    expect((issued.body as Invoice).status).toBe("issued");
  });

  it("the limit is Spanish: a global account's simplified invoice has none, whatever it set", async () => {
    const global = client((await createAccount({ taxRegime: "global" })).testKey);
    const line = { ...ivaLine("5000"), taxes: [] };
    expect((await issue(global, { type: "simplified", lines: [line] })).total).toBe("5000.00");
    await setLimit(global, { limit: "400.00", basis: "art_4_1" });
    expect((await issue(global, { type: "simplified", lines: [line] })).total).toBe("5000.00");
  });
});
