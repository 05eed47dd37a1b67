// The project has no @types/node (the Worker and its tests run in workerd). These are the few
// Node APIs the tooling tests use, typed as far as they use them.

declare module "node:child_process" {
  export function spawnSync(
    command: string,
    args: readonly string[],
    options: { encoding: "utf8" },
  ): { status: number | null; stdout: string; stderr: string; error?: Error };
}

declare module "node:fs" {
  export function mkdtempSync(prefix: string): string;
  export function writeFileSync(path: string, data: string, encoding: "utf8"): void;
  export function rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
}

declare module "node:os" {
  export function tmpdir(): string;
}

declare const process: { env: Record<string, string | undefined> };
