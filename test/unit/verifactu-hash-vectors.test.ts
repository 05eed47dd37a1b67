/**
 * The 24 VERI*FACTU hash vectors (test/fixtures/verifactu/hash-vectors.json, sources in its
 * SOURCE.md): for each, the exact string AEAT hashes and the Huella this service computes.
 */
import { describe, expect, it } from "vitest";
import { cancellationHash, hashInput, recordHash } from "../../src/verifactu/hash";
import vectors from "../fixtures/verifactu/hash-vectors.json";

type Vector = {
  id: string;
  record: string;
  fields: Record<string, string>;
  hash_input: string;
  expected_huella: string;
};

describe("the 24 hash vectors of verifactu-hash-vectors.json", () => {
  it("are 24", () => {
    expect(vectors.vectors).toHaveLength(24);
  });

  it.each((vectors.vectors as unknown as Vector[]).map((v) => [v.id, v] as const))(
    "%s",
    async (_id, vector) => {
      const fields = vector.fields as never;
      expect(hashInput(fields)).toBe(vector.hash_input);
      const huella =
        vector.record === "RegistroAnulacion" ? await cancellationHash(fields) : await recordHash(fields);
      expect(huella).toBe(vector.expected_huella);
    },
  );
});
