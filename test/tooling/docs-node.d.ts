// The Node APIs test/tooling/docs-examples.test.ts uses beyond the other test/tooling/*.d.ts
// files, typed as far as it uses them (the project has no @types/node: its code runs in workerd).

declare module "node:child_process" {
  /** A bash script run to its end (or killed after `timeout` ms), in its own working directory. */
  export function spawnSync(
    command: string,
    args: readonly string[],
    options: {
      cwd: string;
      encoding: "utf8";
      env: Record<string, string | undefined>;
      timeout: number;
      maxBuffer: number;
    },
  ): { status: number | null; signal: string | null; stdout: string; stderr: string; error?: Error };
}
