import { describe, expect, it } from "vitest";
import { isId, newId } from "../../src/lib/ids";
import { useClock } from "../helpers/clock";

describe("ids", () => {
  it("ids carry their type prefix and a 26-character body", () => {
    const id = newId("customer");
    expect(id).toMatch(/^cus_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId("customer", id)).toBe(true);
    expect(isId("taxId", id)).toBe(false);
  });

  it("ids created in the same millisecond are strictly increasing", () => {
    useClock(1_700_000_000_000);
    const ids = Array.from({ length: 2000 }, () => newId("customer"));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("ids stay increasing when the clock steps back", () => {
    const clock = useClock(1_800_000_000_000);
    const a = newId("event");
    clock.advance(-5_000);
    const b = newId("event");
    expect(b > a).toBe(true);
  });

  it("later milliseconds sort after earlier ones", () => {
    const clock = useClock(1_900_000_000_000);
    const a = newId("invoice");
    clock.advance(1);
    const b = newId("invoice");
    expect(b > a).toBe(true);
    expect(b.slice(4, 14) > a.slice(4, 14)).toBe(true);
  });
});
