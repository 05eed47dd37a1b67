// The overloads test/tooling/local-state.ts and the tests using it call beyond those of the
// other test/tooling/*.d.ts files. Those declare spawnSync, readdirSync and readFileSync in
// these modules, which hides every other overload of those names; the functions they leave
// undeclared (statSync, createHash) keep @types/node's types, which vitest's types bring in.

declare module "node:child_process" {
  export function spawnSync(
    command: string,
    args: readonly string[],
    options: { cwd: string; encoding: "utf8"; env: Record<string, string | undefined> },
  ): { status: number | null; stdout: string; stderr: string };
}

declare module "node:fs" {
  /** Every entry under `path`, as paths relative to it. */
  export function readdirSync(path: string, options: { recursive: true }): string[];
  /** One character per byte: a byte search for ASCII text. */
  export function readFileSync(path: string, encoding: "latin1"): string;
}
