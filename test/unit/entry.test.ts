import { describe, expect, it } from "vitest";
import * as entry from "../../src/index";

describe("the Worker entry module", () => {
  it("exports only the default handler: workerd treats every named export as an entrypoint", () => {
    expect(Object.keys(entry)).toEqual(["default"]);
  });

  it("handles fetch, queue and scheduled", () => {
    expect(Object.keys(entry.default).sort()).toEqual(["fetch", "queue", "scheduled"]);
  });
});
