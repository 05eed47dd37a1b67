import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/lib/clock";
import { isId, newId } from "../../src/lib/ids";

describe("ids", () => {
  let restore = () => {};
  afterEach(() => restore());

  it("ids carry their type prefix and a 26-character body", () => {
    const id = newId("customer");
    expect(id).toMatch(/^cus_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId("customer", id)).toBe(true);
    expect(isId("taxId", id)).toBe(false);
  });

  it("ids created in the same millisecond are strictly increasing", () => {
    restore = setClock(() => 1_700_000_000_000);
    const ids = Array.from({ length: 2000 }, () => newId("customer"));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("ids stay increasing when the clock steps back", () => {
    let t = 1_800_000_000_000;
    restore = setClock(() => t);
    const a = newId("event");
    t -= 5_000;
    const b = newId("event");
    expect(b > a).toBe(true);
  });

  it("later milliseconds sort after earlier ones", () => {
    let t = 1_900_000_000_000;
    restore = setClock(() => t);
    const a = newId("invoice");
    t += 1;
    const b = newId("invoice");
    expect(b > a).toBe(true);
    expect(b.slice(4, 14) > a.slice(4, 14)).toBe(true);
  });
});
