import { describe, expect, it } from "vitest";
import { resolvePaymentInstructions } from "../../src/lib/payment-defaults";

const defaults = ["pmi_first", "pmi_second", "pmi_third"];

describe("resolvePaymentInstructions", () => {
  it("an ordinary invoice with a positive amount gets the account defaults in order", () => {
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: 12100, defaults })).toEqual(defaults);
  });

  it("explicit per-invoice options replace the defaults and keep their own order", () => {
    const explicit = ["pmi_third", "pmi_other"];
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: 1, explicit, defaults })).toEqual(
      explicit,
    );
  });

  it("explicit options left undefined fall back to the defaults", () => {
    expect(
      resolvePaymentInstructions({ kind: "ordinary", payableMinor: 1, explicit: undefined, defaults }),
    ).toEqual(defaults);
  });

  it("an explicit empty list means no payment terms, not the defaults", () => {
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: 1, explicit: [], defaults })).toEqual(
      [],
    );
  });

  it("an ordinary invoice gets no payment terms when the account has no defaults", () => {
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: 500, defaults: [] })).toEqual([]);
  });

  it("a repeated instruction is kept once at its first position", () => {
    const explicit = ["pmi_b", "pmi_a", "pmi_b"];
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: 1, explicit, defaults })).toEqual([
      "pmi_b",
      "pmi_a",
    ]);
  });

  it("a zero-value invoice gets no payment terms, default or explicit", () => {
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: 0, defaults })).toEqual([]);
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: -0, defaults })).toEqual([]);
    expect(
      resolvePaymentInstructions({ kind: "ordinary", payableMinor: 0, explicit: ["pmi_x"], defaults }),
    ).toEqual([]);
  });

  it("a negative invoice gets no payment terms, default or explicit", () => {
    expect(resolvePaymentInstructions({ kind: "ordinary", payableMinor: -100, defaults })).toEqual([]);
    expect(
      resolvePaymentInstructions({ kind: "ordinary", payableMinor: -1, explicit: ["pmi_x"], defaults }),
    ).toEqual([]);
  });

  it("a credit note gets no payment terms, default or explicit, whatever its amount", () => {
    expect(resolvePaymentInstructions({ kind: "credit_note", payableMinor: 12100, defaults })).toEqual([]);
    expect(
      resolvePaymentInstructions({ kind: "credit_note", payableMinor: 12100, explicit: ["pmi_x"], defaults }),
    ).toEqual([]);
    expect(resolvePaymentInstructions({ kind: "credit_note", payableMinor: -12100, defaults })).toEqual([]);
  });

  it.each([1.5, 0.1, Number.NaN, Number.POSITIVE_INFINITY])(
    "a non-integer payable amount (%s) throws a RangeError",
    (payableMinor) => {
      expect(() => resolvePaymentInstructions({ kind: "ordinary", payableMinor, defaults })).toThrow(
        RangeError,
      );
    },
  );

  it("the result is a fresh array, so callers cannot change the account defaults through it", () => {
    const result = resolvePaymentInstructions({ kind: "ordinary", payableMinor: 1, defaults });
    result.push("pmi_mutated");
    expect(defaults).toEqual(["pmi_first", "pmi_second", "pmi_third"]);
  });
});
