import { describe, expect, it } from "vitest";
import { connectionSlots } from "../../src/lib/connections";

/** A send that stays open until `release` is called, recording when it started. */
function held(log: string[], name: string) {
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    send: async () => {
      log.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("connection slots", () => {
  it("at most `limit` sends run at once; the next starts when one settles, first come first served", async () => {
    const slots = connectionSlots(2);
    const log: string[] = [];
    const sends = ["a", "b", "c", "d"].map((name) => held(log, name));
    const results = sends.map((s) => slots(s.send));
    await tick();
    expect(log).toEqual(["a", "b"]);
    sends[1]?.release();
    await tick();
    expect(log).toEqual(["a", "b", "c"]);
    sends[0]?.release();
    await tick();
    expect(log).toEqual(["a", "b", "c", "d"]);
    for (const s of sends) s.release();
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d"]);
  });

  it("a send that throws frees its slot", async () => {
    const slots = connectionSlots(1);
    await expect(slots(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await slots(async () => "next")).toBe("next");
  });
});
