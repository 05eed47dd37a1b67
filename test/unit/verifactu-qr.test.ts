import { describe, expect, it } from "vitest";
import { qrUrl } from "../../src/verifactu/qr";

const base = { nif: "89890001K", number: "12345678-G33", date: "2024-01-01", total: "241.40" };

describe("VERI*FACTU QR URL", () => {
  it("Test mode points at AEAT's pre-production host with nif, numserie, fecha DD-MM-YYYY and importe", () => {
    expect(qrUrl({ ...base, live: false })).toBe(
      "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678-G33&fecha=01-01-2024&importe=241.40",
    );
  });

  it("Live mode points at AEAT's production host with the same path and parameters", () => {
    expect(qrUrl({ ...base, live: true })).toBe(
      "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678-G33&fecha=01-01-2024&importe=241.40",
    );
  });

  it("parameter values are URL-encoded as UTF-8: a slash, spaces, & and non-ASCII letters", () => {
    const url = new URL(qrUrl({ ...base, number: "F 2024/Año&1 ñ", live: false }));
    expect(url.search).toBe(
      "?nif=89890001K&numserie=F%202024%2FA%C3%B1o%261%20%C3%B1&fecha=01-01-2024&importe=241.40",
    );
    expect(url.searchParams.get("numserie")).toBe("F 2024/Año&1 ñ");
  });

  it("importe is the record's ImporteTotal as written, negative for a corrective invoice", () => {
    expect(new URL(qrUrl({ ...base, total: "-60.50", live: true })).searchParams.get("importe")).toBe(
      "-60.50",
    );
  });
});
